; Bash definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; Functions only (`f() {...}`, `function f {...}`); every command is a call of its name;
; `source file` and `. file` are imports. Doc comments are the `#` block above (never `#!`).

(function_definition
  name: (word) @name
  body: (_) @body) @definition.function

(command
  name: (command_name) @name) @reference.call

(command
  name: (command_name) @_source
  argument: (_) @name
  (#any-of? @_source "source" ".")) @reference.import
