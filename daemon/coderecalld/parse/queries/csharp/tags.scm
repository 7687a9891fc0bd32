; C# definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; Qualified names are dotted from the enclosing namespace: Geometry.Shapes.Circle.Area().
; Methods, constructors, local functions and delegates add (ParamTypes) (@params) so
; overloads never collide. A file-scoped `namespace A.B;` is the file's @package.
; Attributes ([Obsolete]) are @decorator: inside the declaration, so ranges start there.
; Doc comments (///) are the comment block above, cleaned by the registry's doc_style.

(namespace_declaration
  name: (_) @name
  body: (declaration_list) @body) @definition.module

(file_scoped_namespace_declaration
  name: (_) @package)

(class_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name
  body: (declaration_list) @body)

(struct_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.struct

(interface_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.interface

(enum_declaration
  name: (identifier) @name
  body: (enum_member_declaration_list) @body) @definition.enum

(delegate_declaration
  name: (identifier) @name
  parameters: (parameter_list) @params) @definition.type_alias

(method_declaration
  name: (identifier) @name
  parameters: (parameter_list) @params) @definition.function

(method_declaration
  name: (identifier) @name
  body: (_) @body)

(constructor_declaration
  name: (identifier) @name
  parameters: (parameter_list) @params
  body: (_) @body) @definition.function

; A property with code is a method, as Python's @property is: an accessor with a body
; (`public int Count { get { ... } }`) or an expression body (`public int X => 1;`). An
; auto-property (`{ get; set; }`) is data, no symbol, as a field is.
(property_declaration
  name: (identifier) @name
  accessors: (accessor_list (accessor_declaration body: (_))) @body) @definition.function

(property_declaration
  name: (identifier) @name
  value: (arrow_expression_clause) @body) @definition.function

(destructor_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function

(local_function_statement
  name: (identifier) @name
  parameters: (parameter_list) @params
  body: (_) @body) @definition.function

(class_declaration (attribute_list) @decorator name: (identifier) @name)
(record_declaration (attribute_list) @decorator name: (identifier) @name)
(struct_declaration (attribute_list) @decorator name: (identifier) @name)
(interface_declaration (attribute_list) @decorator name: (identifier) @name)
(enum_declaration (attribute_list) @decorator name: (identifier) @name)
(method_declaration (attribute_list) @decorator name: (identifier) @name)
(constructor_declaration (attribute_list) @decorator name: (identifier) @name)
(delegate_declaration (attribute_list) @decorator name: (identifier) @name)

(invocation_expression
  function: (_) @name) @reference.call

(object_creation_expression
  type: (_) @name) @reference.call

; A constructor's `: base(..)` / `: this(..)` (parse._chains names it after that class).
(constructor_initializer
  ["base" "this"] @name) @reference.call

(using_directive
  [(identifier) (qualified_name)] @name) @reference.import

; --- constants: `const` and `static readonly` fields, enum members (records.VALUE_KINDS) ---
(field_declaration
  (modifier) @_const
  (variable_declaration (variable_declarator name: (identifier) @name))
  (#eq? @_const "const")) @definition.constant

(field_declaration
  (modifier) @_static
  (modifier) @_readonly
  (variable_declaration (variable_declarator name: (identifier) @name))
  (#eq? @_static "static")
  (#eq? @_readonly "readonly")) @definition.constant

(enum_member_declaration name: (identifier) @name) @definition.constant
