; PHP definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; Qualified names are dotted after the namespace as written: App\Models.User.name. A
; statement `namespace App\Models;` is the file's @package; a braced namespace is a module.
; Attributes (#[Entity]) are @decorator. Doc comments (/** */, //, #) are the block above.

(namespace_definition
  name: (namespace_name) @package
  !body)

(namespace_definition
  name: (namespace_name) @name
  body: (compound_statement) @body) @definition.module

(class_declaration
  name: (name) @name
  body: (declaration_list) @body) @definition.class

(interface_declaration
  name: (name) @name
  body: (declaration_list) @body) @definition.interface

(trait_declaration
  name: (name) @name
  body: (declaration_list) @body) @definition.trait

(enum_declaration
  name: (name) @name
  body: (enum_declaration_list) @body) @definition.enum

(function_definition
  name: (name) @name
  body: (compound_statement) @body) @definition.function

(method_declaration
  name: (name) @name) @definition.function

(method_declaration
  name: (name) @name
  body: (compound_statement) @body)

(class_declaration attributes: (attribute_list) @decorator name: (name) @name)
(method_declaration attributes: (attribute_list) @decorator name: (name) @name)
(function_definition attributes: (attribute_list) @decorator name: (name) @name)

(function_call_expression
  function: (_) @name) @reference.call

(member_call_expression
  name: (_) @name) @reference.call

(scoped_call_expression
  name: (_) @name) @reference.call

(object_creation_expression
  [(name) (qualified_name)] @name) @reference.call

(namespace_use_clause
  [(name) (qualified_name)] @name) @reference.import

; --- constants: `const NAME = value` of a class, interface, enum or file (records.VALUE_KINDS)
(const_declaration (const_element (name) @name)) @definition.constant
