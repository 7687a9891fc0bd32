; JavaScript (and JSX) definitions, calls and imports for coderecalld.parse.
; Captures: see queries/python/tags.scm; the TypeScript query has the same shape.
;
; A symbol's range starts at `export` or at its first decorator: every declaration has an
; `export_statement` pattern (the widest extent wins); member decorators are inside the
; member's node in this grammar. Docstrings are the comments directly above the range.

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
  (field_definition property: (_) @name value: (arrow_function "async" @async))
]

; --- classes and their members --------------------------------------------------------

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(class_declaration
  decorator: (decorator) @decorator
  name: (identifier) @name)

(method_definition
  name: (_) @name
  body: (statement_block) @body) @definition.function

(method_definition
  decorator: (decorator) @decorator
  name: (_) @name)

; class fields holding an arrow function or function expression: `onClick = () => {...}`
(field_definition
  property: (_) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
    (generator_function body: (_) @body)
  ]) @definition.function

; --- `export` (and `export default`) widens the range ---------------------------------

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
  declaration: (class_declaration name: (identifier) @name)) @definition.class

(export_statement
  decorator: (decorator) @decorator
  declaration: (class_declaration name: (identifier) @name))

; --- references -----------------------------------------------------------------------

; Callees that name something: not an IIFE `(function () {...})()` (its last identifier would
; be a guess).
(call_expression
  function: [
    (identifier) (member_expression) (subscript_expression) (call_expression) (super)
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

; CommonJS: require("module")
((call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @name) .))
  (#eq? @_require "require")) @reference.import
