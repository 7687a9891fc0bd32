; C++ definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; Qualified names join with "::": geo::Circle::area. An out-of-class definition
; `Circle Circle::unit()` names its class as @receiver, so it becomes method unit of
; geo::Circle when written inside namespace geo. A function's declarator may sit under a
; pointer or reference declarator. Templates start the range (`template <...>`). Prototypes
; and pure virtual declarations are not definitions. Doc comments are the comment block above.

(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)] @name))
    (reference_declarator (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)] @name))
  ]
  body: (compound_statement)? @body) @definition.function

(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier
      scope: (_) @receiver name: [(identifier) (destructor_name) (operator_name)] @name))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      scope: (_) @receiver name: [(identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: (qualified_identifier
      scope: (_) @receiver name: [(identifier) (operator_name)] @name)))
  ]
  body: (compound_statement)? @body) @definition.function

(template_declaration
  (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name)
      (function_declarator declarator: (qualified_identifier name: (identifier) @name))
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (reference_declarator (function_declarator declarator: (identifier) @name))
    ]
    body: (compound_statement)? @body)) @definition.function

(template_declaration
  [(class_specifier name: [(type_identifier) (template_type)] @name body: (_))
   (struct_specifier name: [(type_identifier) (template_type)] @name body: (_))]) @definition.class

(namespace_definition
  name: (_) @name
  body: (declaration_list) @body) @definition.module

(class_specifier
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.class

(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

; A template's specialization is named as written (fmt's ~50 `template <> struct
; formatter<bytes> {...}` were no symbols): `formatter<bytes>`, its members
; `formatter<bytes>::format`; `symbols formatter --prefix` lists them all.
(class_specifier
  name: (template_type) @name
  body: (field_declaration_list) @body) @definition.class

(struct_specifier
  name: (template_type) @name
  body: (field_declaration_list) @body) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (enumerator_list) @body) @definition.enum

(alias_declaration
  name: (type_identifier) @name) @definition.type_alias

(type_definition
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator
      (pointer_declarator declarator: (type_identifier) @name)))
  ]) @definition.type_alias

; C code C++ reads too (a header read as C++, `parse.symbols`): a function returning a
; pointer to a pointer (`char **split_words(...)`).
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name)))
  body: (compound_statement) @body) @definition.function

; A function-like macro (`#define MAX(a, b) ...`) is called like a function.
(preproc_function_def
  name: (identifier) @name) @definition.function

(call_expression
  function: (_) @name) @reference.call

(new_expression
  type: (_) @name) @reference.call

; A constructor's base initializer (`: Base(x)`, `: detail::buffer<T>(x)`; a member's
; `: size_(n)` is dropped in parse/extract.py) and a local constructed in its declaration
; (`Base b(1);`, `Base c{2};`) run that type's constructor.
(field_initializer
  [(field_identifier) (qualified_identifier) (template_method)] @name
  (argument_list)) @reference.call

(declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @name
  declarator: (init_declarator value: [(argument_list) (initializer_list)])) @reference.call

(preproc_include
  path: (_) @name) @reference.import

(using_declaration
  (_) @name) @reference.import

; --- constants: an object-like macro with a value (not an include guard) and an enumerator
; (records.VALUE_KINDS: found by name, never searched themselves)
(preproc_def name: (identifier) @name value: (_)) @definition.constant
(enumerator name: (identifier) @name) @definition.constant
