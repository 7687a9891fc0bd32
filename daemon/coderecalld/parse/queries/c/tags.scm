; C definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; C has one namespace, so qualified names are plain names. A function's declarator may sit
; under up to two pointer declarators (`char **f(void)`). Prototypes are not definitions.
; `typedef struct node {...} node_t;` gives struct `node` and type_alias `node_t`; a type
; alias never contains other symbols. Doc comments are the comment block above.

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name)))
  ]
  body: (compound_statement) @body) @definition.function

(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (enumerator_list) @body) @definition.enum

(type_definition
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator
      (pointer_declarator declarator: (type_identifier) @name)))
  ]) @definition.type_alias

; A function-like macro (`#define MAX(a, b) ...`) is called like a function.
(preproc_function_def
  name: (identifier) @name) @definition.function

(call_expression
  function: (_) @name) @reference.call

(preproc_include
  path: (_) @name) @reference.import

; --- constants: an object-like macro with a value (not an include guard) and an enumerator
; (records.VALUE_KINDS: found by name, never searched themselves)
(preproc_def name: (identifier) @name value: (_)) @definition.constant
(enumerator name: (identifier) @name) @definition.constant
