; JSX component references for coderecalld.parse, appended to the JavaScript and TSX queries
; (registry `extra_tags`; the TypeScript grammar has no JSX nodes, so its query cannot hold them).
;
; `<Row ... />` and `<Row>...</Row>` render component Row: a call site of Row, as the compiled
; `jsx(Row, ...)` is. Lower-case names are HTML elements, not references.

(jsx_self_closing_element
  name: [(identifier) (member_expression)] @name
  (#match? @name "^[A-Z]")) @reference.call

(jsx_opening_element
  name: [(identifier) (member_expression)] @name
  (#match? @name "^[A-Z]")) @reference.call
