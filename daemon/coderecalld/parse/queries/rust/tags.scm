; Rust definitions, calls and imports for coderecalld.parse. Captures: see queries/python/tags.scm.
;
; Qualified names join with `::`. An `impl` block is not a symbol: each item in it names the
; implemented type as @receiver (its parent, without path or generics) and, for a trait impl,
; the trait as @trait, giving `Type::method` and `<Type as Trait>::method`. Attributes are
; @decorator; the grammar makes them siblings of the item, so they are matched with an
; anchored `.` and the item's range starts at the first one. Docstrings are the `///`
; (or other) comments directly above.

(function_item
  name: (identifier) @name
  body: (block) @body) @definition.function

(function_signature_item
  name: (identifier) @name) @definition.function

(function_item
  (function_modifiers "async" @async)
  name: (identifier) @name)

(struct_item
  name: (type_identifier) @name) @definition.struct

(struct_item
  name: (type_identifier) @name
  body: (_) @body)

(union_item
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(enum_item
  name: (type_identifier) @name
  body: (enum_variant_list) @body) @definition.enum

(trait_item
  name: (type_identifier) @name
  body: (declaration_list) @body) @definition.trait

(type_item
  name: (type_identifier) @name) @definition.type_alias

(mod_item
  name: (identifier) @name
  body: (declaration_list) @body) @definition.module

; `macro_rules! json { ... }` is invoked like a function (`json!(...)`, a call of `json`).
(macro_definition
  name: (identifier) @name) @definition.function

; --- impl blocks: the type (and trait) each item belongs to ---------------------------

(impl_item
  type: [
    (type_identifier) @receiver
    (primitive_type) @receiver
    (scoped_type_identifier
      path: (_) @_path
      name: (type_identifier) @receiver
      (#not-match? @_path "^(std|core|alloc|io|fmt|fs|ops|cmp|hash|iter|net|path|process|sync|thread|time|collections|ffi|os|env|str|string|vec|num|mem|ptr|rc|cell|borrow|convert|marker|any|slice|boxed)(::|$)"))
    (generic_type type: [
      (type_identifier) @receiver
      (scoped_type_identifier name: (type_identifier) @receiver)
    ])
    (reference_type type: [
      (type_identifier) @receiver
      (primitive_type) @receiver
      (generic_type type: (type_identifier) @receiver)
    ])
  ]
  body: (declaration_list [
    (function_item name: (identifier) @name)
    (function_signature_item name: (identifier) @name)
    (type_item name: (type_identifier) @name)
    (const_item name: (identifier) @name)
  ]))

; A type of the standard library, named by its path (`impl From<Error> for io::Error`:
; `<io::Error as From<Error>>::from`, not a method of the crate's own `Error`: walkdir's
; card of its `Error` listed it). A path into the crate's own modules names its type alone.
(impl_item
  type: (scoped_type_identifier
    path: (_) @_path
    (#match? @_path "^(std|core|alloc|io|fmt|fs|ops|cmp|hash|iter|net|path|process|sync|thread|time|collections|ffi|os|env|str|string|vec|num|mem|ptr|rc|cell|borrow|convert|marker|any|slice|boxed)(::|$)")) @receiver
  body: (declaration_list [
    (function_item name: (identifier) @name)
    (function_signature_item name: (identifier) @name)
    (type_item name: (type_identifier) @name)
    (const_item name: (identifier) @name)
  ]))

; A type with no name of its own (a tuple, `()`, an array or slice, a pointer, a function
; type, a `dyn Trait`, a reference to one)
; is named by its text: `<(StatusCode, R) as IntoResponse>::into_response`, not `< as ...>`.
(impl_item
  type: [
    (tuple_type)
    (unit_type)
    (array_type)
    (pointer_type)
    (function_type)
    (dynamic_type)
    (reference_type type: [(tuple_type) (unit_type) (array_type) (pointer_type) (function_type)
                           (dynamic_type)])
  ] @receiver
  body: (declaration_list [
    (function_item name: (identifier) @name)
    (function_signature_item name: (identifier) @name)
    (type_item name: (type_identifier) @name)
    (const_item name: (identifier) @name)
  ]))

(impl_item
  trait: (_) @trait
  body: (declaration_list [
    (function_item name: (identifier) @name)
    (function_signature_item name: (identifier) @name)
    (type_item name: (type_identifier) @name)
    (const_item name: (identifier) @name)
  ]))

; --- attributes: `#[derive(...)]`, `#[test]`, `#[cfg(test)]` ----------------------------

(
  (attribute_item)+ @decorator
  .
  [
    (function_item name: (identifier) @name)
    (function_signature_item name: (identifier) @name)
    (struct_item name: (type_identifier) @name)
    (union_item name: (type_identifier) @name)
    (enum_item name: (type_identifier) @name)
    (trait_item name: (type_identifier) @name)
    (type_item name: (type_identifier) @name)
    (mod_item name: (identifier) @name)
    (macro_definition name: (identifier) @name)
  ]
)

; --- references -----------------------------------------------------------------------

(call_expression
  function: [
    (identifier) @name
    (scoped_identifier) @name
    (field_expression) @name
    (generic_function function: (_) @name)
  ]) @reference.call

(macro_invocation
  macro: (identifier) @name) @reference.call

; A call inside a macro's token tree (`vec![a.len()]`, `write!(f, "{}", x.name())`) is only
; tokens: an identifier right before a parenthesized token tree.
(token_tree
  (identifier) @name @reference.call
  .
  (token_tree . "("))

(use_declaration
  argument: (_) @name) @reference.import

; A function or an associated function named as a value, not called: a struct literal's
; field (`drop: shared_drop` of bytes' `SHARED_VTABLE`), an argument (`.map(Bytes::from)`),
; a static's or const's initializer, a generic one by its turbofish (`owned_clone::<T>`).
; index/resolve keeps one naming a function of the file (`_rust_reference`): bytes'
; vtable functions, called only through the table, had "no call sites".
(field_initializer value: [(identifier) (scoped_identifier)] @name @reference.value)
(field_initializer value: (generic_function function: [(identifier) (scoped_identifier)] @name @reference.value))
(arguments [(identifier) (scoped_identifier)] @name @reference.value)
(arguments (generic_function function: [(identifier) (scoped_identifier)] @name @reference.value))
(static_item value: [(identifier) (scoped_identifier)] @name @reference.value)
(const_item value: [(identifier) (scoped_identifier)] @name @reference.value)
(let_declaration value: (generic_function function: [(identifier) (scoped_identifier)] @name @reference.value))

; --- constants and statics (records.VALUE_KINDS: found by name) ---------------------------
; (a file's or a module's; an impl's are named by its type above; a function's own are none)
;  A `static mut` is a variable: written at run time, unsafe to read.
(source_file [(const_item name: (identifier) @name) (static_item name: (identifier) @name)] @definition.constant
  (#not-match? @definition.constant "^(pub(\\([^)]*\\))?\\s+)?static\\s+mut\\b"))
(mod_item body: (declaration_list [(const_item name: (identifier) @name)
                                   (static_item name: (identifier) @name)] @definition.constant
  (#not-match? @definition.constant "^(pub(\\([^)]*\\))?\\s+)?static\\s+mut\\b")))
(source_file (static_item (mutable_specifier) name: (identifier) @name) @definition.variable)
(mod_item body: (declaration_list (static_item (mutable_specifier) name: (identifier) @name) @definition.variable))
(impl_item body: (declaration_list (const_item name: (identifier) @name) @definition.constant))
