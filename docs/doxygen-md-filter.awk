# Doxygen input filter for the Markdown pages (README.md, CHANGELOG.md, docs/*.md,
# mock_server/README.md). Lines are never added or removed, so Doxygen's line numbers stay right.
#
# - Links. Doxygen turns a relative link to a .md file into a page reference and warns when that
#   file is not one of its inputs. Links to pages in the reference are kept; any other relative
#   link (a source file, a page not in the reference, one not written yet) becomes its path in
#   code font, which reads the same and cannot dangle.
# - Pages. Doxygen resolves a link to a .md file to the file, not to the page made from it, so
#   each page's title gets a label made of its path (docs/loop.md: docs_loop) and links use it.
# - Anchors. GitHub gives every heading an anchor made from its words (`#the-report`); Doxygen
#   1.9 does not. Each heading below the title gets an explicit label made of its page's path and
#   that slug, and links to `#slug` or `page.md#slug` are pointed at those labels, so one set of
#   links works in both places. Labels carry the page because Doxygen's labels are global.
# - A code span holding a single `"` is written as HTML (see below).

function normalized(path,    parts, n, i, out, kept, k) {
  n = split(path, parts, "/")
  k = 0
  for (i = 1; i <= n; i++) {
    if (parts[i] == "" || parts[i] == ".") continue
    if (parts[i] == ".." && k > 0) { k--; continue }
    kept[++k] = parts[i]
  }
  out = ""
  for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") kept[i]
  return out
}

# The page's path from the repository root, e.g. docs/loop.md, or "" when outside it.
function page_of(path,    resolved) {
  resolved = normalized(directory "/" path)
  if (index(resolved, root "/") != 1) return ""
  return substr(resolved, length(root) + 2)
}

function in_reference(page,    probe) {
  if (page != "README.md" && page != "CHANGELOG.md" && page != "mock_server/README.md" &&
      page !~ /^docs\/[^\/]+\.md$/) return 0
  if ((getline probe < ("/" root "/" page)) < 0) return 0
  close("/" root "/" page)
  return 1
}

# GitHub's heading slug: lower case, punctuation removed, spaces to hyphens.
function slug(text,    out) {
  out = tolower(text)
  gsub(/[^a-z0-9 _-]/, "", out)
  gsub(/ /, "-", out)
  return out
}

# A page's own label is its path (docs_loop); a heading's adds the slug (docs_loop_the-trace).
function label(page, anchor,    prefix) {
  prefix = page
  sub(/\.md$/, "", prefix)
  gsub(/[^A-Za-z0-9]/, "_", prefix)
  return anchor == "" ? prefix : prefix "_" anchor
}

function rewritten(link,    text, target, path, anchor, page) {
  text = link
  sub(/\]\(.*/, "", text)
  text = substr(text, 2)
  target = link
  sub(/^\[[^\]]*\]\(/, "", target)
  sub(/\)$/, "", target)
  if (target ~ /^(https?|mailto):/) return link
  path = target
  anchor = ""
  if (index(target, "#") > 0) {
    path = substr(target, 1, index(target, "#") - 1)
    anchor = substr(target, index(target, "#") + 1)
  }
  page = path == "" ? this_page : page_of(path)
  if (page ~ /\.md$/ && in_reference(page)) return "[" text "](#" label(page, anchor) ")"
  if (text == target || text == "`" target "`") return "`" target "`"
  return text " (`" target "`)"
}

BEGIN { root = normalized(ENVIRON["PWD"]) }
FNR == 1 {
  directory = FILENAME
  if (directory !~ /^\//) directory = ENVIRON["PWD"] "/" directory
  sub(/\/[^\/]*$/, "", directory)
  this_page = FILENAME
  sub(/.*\//, "", this_page)
  this_page = page_of(this_page)
  fenced = 0
  titled = 0
}
/^[ \t]*(```|~~~)/ { fenced = !fenced; print; next }
fenced { print; next }
/^# / && !titled {
  titled = 1
  print $0 " {#" label(this_page, "") "}"
  next
}
/^##+ / {
  heading = $0
  sub(/^#+ +/, "", heading)
  print $0 " {#" label(this_page, slug(heading)) "}"
  next
}
{
  line = $0
  # A code span of one double quote makes Doxygen 1.9 read the rest of the line as a quoted
  # string, so backslashes in later code spans (`"\xFF"`) become commands; HTML says it plainly.
  gsub(/`"`/, "<code>\\&quot;</code>", line)
  out = ""
  while (match(line, /\[[^\]]*\]\([^) ]+\)/)) {
    out = out substr(line, 1, RSTART - 1) rewritten(substr(line, RSTART, RLENGTH))
    line = substr(line, RSTART + RLENGTH)
  }
  print out line
}
