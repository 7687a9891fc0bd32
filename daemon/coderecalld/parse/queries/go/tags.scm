; Go definitions, calls and imports for coderecalld.parse. Captures: see queries/python/tags.scm.
;
; Qualified names are `pkg.Func`, `pkg.Type`, `pkg.Type.Method`: @package is the package
; clause's name, and a method's @receiver (its receiver's base type, without `*` or type
; arguments) is its parent. Docstrings are the comments directly above the declaration.

(package_clause (package_identifier) @package)

; The package doc is the comment block directly above `package` (extract reads it there).
(package_clause) @doc.module

(function_declaration
  name: (identifier) @name) @definition.function

(function_declaration
  name: (identifier) @name
  body: (block) @body)

(method_declaration
  name: (field_identifier) @name) @definition.function

(method_declaration
  name: (field_identifier) @name
  body: (block) @body)

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name)

; --- types: `type X struct {...}`, interfaces, everything else is a type alias ------------
; An ungrouped `type X ...` declaration is the symbol (its signature starts at `type`); in a
; group `type ( ... )` each spec is its own symbol. A type other than a struct or an
; interface (`type ID string`, `type F func()`, `type A = B`) is a type alias. An interface's
; @body is its whole type (its methods must be inside the body to be its members), so its
; signature is `type X`.

(type_declaration
  .
  (type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body))
  .) @definition.struct

(type_declaration
  "("
  (type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @definition.struct)

(type_declaration
  .
  (type_spec name: (type_identifier) @name type: (interface_type) @body)
  .) @definition.interface

(type_declaration
  "("
  (type_spec name: (type_identifier) @name type: (interface_type) @body) @definition.interface)

(type_declaration
  .
  [
    (type_spec name: (type_identifier) @name type: [
      (type_identifier) (qualified_type) (generic_type) (pointer_type) (function_type) (map_type)
      (slice_type) (array_type) (channel_type) (parenthesized_type) (negated_type)
    ])
    (type_alias name: (type_identifier) @name)
  ]
  .) @definition.type_alias

(type_declaration
  "("
  [
    (type_spec name: (type_identifier) @name type: [
      (type_identifier) (qualified_type) (generic_type) (pointer_type) (function_type) (map_type)
      (slice_type) (array_type) (channel_type) (parenthesized_type) (negated_type)
    ])
    (type_alias name: (type_identifier) @name)
  ] @definition.type_alias)

; interface methods: `Handle(x int) error`
(method_elem
  name: (field_identifier) @name) @definition.function

; --- references -----------------------------------------------------------------------

; Callees that name something: not `func() {...}()` (its last identifier would be a guess).
(call_expression
  function: [
    (identifier) (selector_expression) (index_expression) (call_expression) (parenthesized_expression)
  ] @name) @reference.call

; A generic function instantiated and called with one argument parses as a conversion to a
; generic type (`getTyped[string](c)`, `conv.Cast[int](v)`): its call (index/resolve keeps
; it where the name is no variable's, as an indexed call: records.CallSite.indexed).
(type_conversion_expression
  type: (generic_type) @name) @reference.call

(import_spec
  path: (interpreted_string_literal (interpreted_string_literal_content) @name)) @reference.import

; A function or a method value named as a value, not called: passed (`http.HandlerFunc(
; mx.routeHTTP)`, `r.Use(middleware.Logger)`), a struct literal's field or a list's element,
; assigned or returned. index/resolve keeps one that may name a function or method (a
; reference, which `callers` lists as one: chi's `Mux.routeHTTP`, the router's handler,
; had no callers at all).
(argument_list [(identifier) (selector_expression)] @name @reference.value)
(keyed_element value: (literal_element [(identifier) (selector_expression)] @name @reference.value))
(literal_value (literal_element [(identifier) (selector_expression)] @name @reference.value))
(short_var_declaration right: (expression_list [(identifier) (selector_expression)] @name @reference.value))
(assignment_statement right: (expression_list [(identifier) (selector_expression)] @name @reference.value))
(var_spec value: (expression_list [(identifier) (selector_expression)] @name @reference.value))
(return_statement (expression_list [(identifier) (selector_expression)] @name @reference.value))

; --- a package's constants and variables (records.VALUE_KINDS: found by name) -------------
; (a declaration of one spec is the spec's range: its doc comment is above the keyword)
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (const_declaration (const_spec name: (identifier) @name)) @definition.constant
  (#not-match? @definition.constant "^const\\s*\\("))
(source_file (var_declaration (var_spec name: (identifier) @name)) @definition.variable)
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))
