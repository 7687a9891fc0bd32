; Scala definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; Qualified names are dotted and file-relative (the package is not a prefix): Circle.area.
; A companion `object Circle` is a class of the same name as its class. Annotations are
; @decorator; the range starts at the first. Doc comments are the comment block above.
; Imports are not reported: the grammar keeps no node for a dotted import path.

(class_definition
  name: (identifier) @name
  body: (_)? @body) @definition.class

(object_definition
  name: (identifier) @name
  body: (_)? @body) @definition.class

(trait_definition
  name: (identifier) @name
  body: (_)? @body) @definition.trait

(enum_definition
  name: (identifier) @name
  body: (_) @body) @definition.enum

(function_definition
  name: (identifier) @name
  body: (_) @body) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

(type_definition
  name: (type_identifier) @name) @definition.type_alias

; A named `given` is a definition: with a template body (`given t: Text[Byte] with ...`)
; an instance of an anonymous class, its members its methods; else the value it builds
; (`given default: BufferCapacity = 16`, `given x(using Y): Z = ...`). An anonymous
; `given Ordering[Int] with` has no name to ask for.
(given_definition
  name: (identifier) @name
  body: (with_template_body) @body) @definition.class

(given_definition
  name: (identifier) @name
  body: (_) @body) @definition.function

; A `val`/`lazy val`/`var` of a type or of the file whose value is a block of code is a
; method (a function at the top), as a Swift property a closure builds: ox's 12-line
; `lazy val oxComputeExecutor`. A function's local value is no definition (os-lib's
; `val opts1 =` with its value on the next line).
([(template_body [(val_definition pattern: (identifier) @name value: [(block) (indented_block)] @body)
                  (var_definition pattern: (identifier) @name value: [(block) (indented_block)] @body)]
                 @definition.function)
  (compilation_unit [(val_definition pattern: (identifier) @name value: [(block) (indented_block)] @body)
                     (var_definition pattern: (identifier) @name value: [(block) (indented_block)] @body)]
                    @definition.function)])

; Any other `val` of an object or of the file is a constant, a `var` a variable (a class's
; are its instances' fields).
([(compilation_unit (val_definition pattern: (identifier) @name) @definition.constant)
  (object_definition body: (template_body (val_definition pattern: (identifier) @name) @definition.constant))
  (package_object body: (template_body (val_definition pattern: (identifier) @name) @definition.constant))])

([(compilation_unit (var_definition pattern: (identifier) @name) @definition.variable)
  (object_definition body: (template_body (var_definition pattern: (identifier) @name) @definition.variable))
  (package_object body: (template_body (var_definition pattern: (identifier) @name) @definition.variable))])

; An enum's cases are its constants (`SleepMode.StartToStart`), as Java's are.
(enum_case_definitions
  [(simple_enum_case name: (identifier) @name) (full_enum_case name: (identifier) @name)] @definition.constant)

; A top-level extension method is named by the type it extends (`extension (c: Threshold)`
; / `def isExceeded` is Threshold.isExceeded), as Kotlin's is; type arguments dropped; not
; when that type is a type parameter (`extension [E](e: E)`). One in an object is the
; object's member (KafkaStage.mapPublish), as Scala calls it. (No field names: with them
; only the first of several methods matched.)
(compilation_unit
  (extension_definition
    (parameters . (parameter type: [(type_identifier) @receiver
                                    (generic_type type: (type_identifier) @receiver)]))
    (function_definition name: (identifier) @name))
  (#not-match? @receiver "^[A-Z][0-9]?$"))

; Scala 3's `end name` marker closes the definition before it (@tail) when it names it.
(_
  [(class_definition name: (identifier) @name) (object_definition name: (identifier) @name)
   (trait_definition name: (identifier) @name) (enum_definition name: (identifier) @name)
   (function_definition name: (identifier) @name) (given_definition name: (identifier) @name)
   (val_definition pattern: (identifier) @name) (var_definition pattern: (identifier) @name)]
  .
  "end"
  .
  "_end_ident" @tail
  (#eq? @tail @name))

([(class_definition (annotation) @decorator name: (identifier) @name)
  (object_definition (annotation) @decorator name: (identifier) @name)
  (trait_definition (annotation) @decorator name: (identifier) @name)
  (function_definition (annotation) @decorator name: (identifier) @name)])

(call_expression
  function: (_) @name) @reference.call

; A call with type arguments only (`BufferCapacity.newChannel[T]`); with an argument list
; too (`g[Int](2)`) the call_expression above names it (extract._add_call).
(generic_function
  function: (_) @name) @reference.call

; A member read as a statement is a call of a parameterless method (`compute().discard`,
; `ch.done().orThrow`: a field read there would do nothing), in a block or an indented one.
([(block (field_expression) @name @reference.call)
  (indented_block (field_expression) @name @reference.call)])
