; TypeScript and TSX definitions, calls and imports for coderecalld.parse (the tsx language
; uses this query with the TSX grammar). Captures: see queries/python/tags.scm.
;
; A symbol's range starts at `export` or at its first decorator: every declaration has an
; `export_statement` pattern (the widest extent wins), and class-member decorators, which
; the grammar makes siblings of the member, are captured with an anchored `.` so that
; extract starts the range there. Docstrings are the comments directly above the range.

; --- functions ----------------------------------------------------------------------

(function_declaration
  name: (identifier) @name
  body: (statement_block) @body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  body: (statement_block) @body) @definition.function

(function_expression
  name: (identifier) @name
  body: (statement_block) @body) @definition.function

; const/let/var bound arrow functions and function expressions: with one declarator the
; declaration is the symbol (its signature keeps `const`); with several
; (`const a = () => 1, b = () => 2`) each declarator is, so their ranges do not coincide.
[
  (lexical_declaration . (variable_declarator
      name: (identifier) @name
      value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) .)
  (variable_declaration . (variable_declarator
      name: (identifier) @name
      value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) .)
] @definition.function

[
  (lexical_declaration (variable_declarator) (variable_declarator
      name: (identifier) @name
      value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @definition.function)
  (lexical_declaration (variable_declarator
      name: (identifier) @name
      value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @definition.function (variable_declarator))
  (variable_declaration (variable_declarator) (variable_declarator
      name: (identifier) @name
      value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @definition.function)
  (variable_declaration (variable_declarator
      name: (identifier) @name
      value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @definition.function (variable_declarator))
]

[
  (function_declaration "async" @async name: (identifier) @name)
  (generator_function_declaration "async" @async name: (identifier) @name)
  (function_expression "async" @async name: (identifier) @name)
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function "async" @async) (function_expression "async" @async) (generator_function "async" @async)])
  (method_definition "async" @async name: (_) @name)
  (public_field_definition name: (_) @name value: (arrow_function "async" @async))
]

; --- classes and their members --------------------------------------------------------

(class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(abstract_class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(class_declaration
  decorator: (decorator) @decorator
  name: (type_identifier) @name)

(abstract_class_declaration
  decorator: (decorator) @decorator
  name: (type_identifier) @name)

(method_definition
  name: (_) @name
  body: (statement_block) @body) @definition.function

(abstract_method_signature
  name: (_) @name) @definition.function

; class fields holding an arrow function or function expression: `onClick = () => {...}`
(public_field_definition
  name: (_) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
    (generator_function body: (_) @body)
  ]) @definition.function

(class_body
  (decorator)+ @decorator
  .
  [
    (method_definition name: (_) @name)
    (abstract_method_signature name: (_) @name)
    (public_field_definition name: (_) @name)
  ])

; --- interfaces, types, enums, namespaces ---------------------------------------------

(interface_declaration
  name: (type_identifier) @name
  body: (interface_body) @body) @definition.interface

(method_signature
  name: (_) @name) @definition.function

(type_alias_declaration
  name: (type_identifier) @name) @definition.type_alias

(enum_declaration
  name: (identifier) @name
  body: (enum_body) @body) @definition.enum

(internal_module
  name: (_) @name
  body: (statement_block) @body) @definition.module

; `module Foo {}`; an ambient `declare module "pkg" {}` is named without its quotes
(module
  name: [(identifier) @name (nested_identifier) @name (string (string_fragment) @name)]
  body: (statement_block) @body) @definition.module

; --- `export`, `export default` and `declare` widen the range ---------------------------

(export_statement
  declaration: [
    (function_declaration name: (identifier) @name)
    (generator_function_declaration name: (identifier) @name)
    (lexical_declaration
      .
      (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)])
      .)
    (variable_declaration
      .
      (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)])
      .)
  ]) @definition.function

(export_statement
  decorator: (decorator) @decorator
  declaration: [
    (class_declaration name: (type_identifier) @name)
    (abstract_class_declaration name: (type_identifier) @name)
  ])

; Each pattern below matches `declare X`, `export X` and `export declare X`.
([
  (ambient_declaration [
    (class_declaration name: (type_identifier) @name)
    (abstract_class_declaration name: (type_identifier) @name)
  ])
  (export_statement declaration: [
    (class_declaration name: (type_identifier) @name)
    (abstract_class_declaration name: (type_identifier) @name)
    (ambient_declaration [
      (class_declaration name: (type_identifier) @name)
      (abstract_class_declaration name: (type_identifier) @name)
    ])
  ])
] @definition.class)

([
  (ambient_declaration (interface_declaration name: (type_identifier) @name))
  (export_statement declaration: [
    (interface_declaration name: (type_identifier) @name)
    (ambient_declaration (interface_declaration name: (type_identifier) @name))
  ])
] @definition.interface)

([
  (ambient_declaration (type_alias_declaration name: (type_identifier) @name))
  (export_statement declaration: [
    (type_alias_declaration name: (type_identifier) @name)
    (ambient_declaration (type_alias_declaration name: (type_identifier) @name))
  ])
] @definition.type_alias)

([
  (ambient_declaration (enum_declaration name: (identifier) @name))
  (export_statement declaration: [
    (enum_declaration name: (identifier) @name)
    (ambient_declaration (enum_declaration name: (identifier) @name))
  ])
] @definition.enum)

([
  (ambient_declaration [
    (internal_module name: (_) @name)
    (module name: [(identifier) @name (nested_identifier) @name (string (string_fragment) @name)])
  ])
  (export_statement declaration: [
    (internal_module name: (_) @name)
    (module name: [(identifier) @name (nested_identifier) @name (string (string_fragment) @name)])
    (ambient_declaration [
      (internal_module name: (_) @name)
      (module name: [(identifier) @name (nested_identifier) @name (string (string_fragment) @name)])
    ])
  ])
] @definition.module)

; --- references -----------------------------------------------------------------------

; Callees that name something: not an IIFE `(function () {...})()` (its last identifier would
; be a guess).
(call_expression
  function: [
    (identifier) (member_expression) (subscript_expression) (call_expression) (super)
    (await_expression)  ; `await a.b<T>()`: TypeScript's callee is `await a.b`
  ] @name) @reference.call

(new_expression
  constructor: (_) @name) @reference.call

; A decorator written without arguments (`@Injectable`, `@observable`) calls it with what
; it decorates, as one with arguments (`@Component({..})`) calls what that returns.
(decorator [(identifier) (member_expression)] @name) @reference.call

(import_statement
  source: (string (string_fragment) @name)) @reference.import

(export_statement
  source: (string (string_fragment) @name)) @reference.import

(import_require_clause
  source: (string (string_fragment) @name)) @reference.import

; --- constants typed with `as` / `satisfies` (the other values: javascript/stored.scm) ----
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [(as_expression) (satisfies_expression)])) @definition.constant)

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(as_expression) (satisfies_expression)]))) @definition.constant)
