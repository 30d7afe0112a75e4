# Doxygen input filter for accord's headers. The headers are commented with plain `//`, which
# Doxygen ignores; this turns those comments into documentation as Doxygen reads the file, so the
# headers keep one comment style and the reference still carries their words:
#   - the comment block that opens a header documents the file (`/// \file`);
#   - a `//` comment on the lines just above a declaration documents it (`///`);
#   - a trailing `//` comment after a member or enumerator (`...;` or `...,`) documents it (`///<`).
# Comments followed by a blank line, and trailing comments after anything else (`}  // namespace`),
# are left as they are.
# Lines indented three or more spaces past the `//` are code examples: they are fenced, so Doxygen
# shows them as code and does not read `\d` or `<T>` inside them as commands or HTML.
function flush(attach,    i, code, is_code) {
  code = 0
  for (i = 1; i <= n; i++) {
    if (attach == "file" && i == 1) print "/// \\file"
    if (attach != "") {
      is_code = block[i] ~ /^[ \t]*\/\/   /
      if (is_code != code) { print "/// ~~~"; code = is_code }
      sub(/\/\//, "///", block[i])
    }
    print block[i]
  }
  if (code) print "/// ~~~"
  n = 0
}
BEGIN { n = 0; seen_code = 0 }
{
  line = $0
  if (line ~ /^[ \t]*\/\/\//) { flush(""); print line; next }  # already a Doxygen comment
  if (line ~ /^[ \t]*\/\//) { block[++n] = line; next }
  if (n > 0) {
    if (!seen_code && !file_done) { flush("file"); file_done = 1 }
    else if (line ~ /^[ \t]*$/) flush("")
    else flush("decl")
  }
  if (line !~ /^[ \t]*(#|$)/) seen_code = 1
  # A trailing comment after a member or enumerator; the `;`/`,` keeps `http://` in strings safe.
  if (line ~ /[;,][ \t]+\/\/ / && line !~ /^[ \t]*\/\//) sub(/[ \t]+\/\/ /, "  ///< ", line)
  print line
}
END { flush("") }
