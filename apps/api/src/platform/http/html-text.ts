// Text put into the HTML the server sends: an attribute's value, a JSON <script>'s content.

export function escapeHtmlAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** JSON as the text of a <script> element: `<` escaped, so no `</script>` can close it early. */
export function scriptJson(json: string): string {
  return json.replaceAll('<', '\\u003c');
}
