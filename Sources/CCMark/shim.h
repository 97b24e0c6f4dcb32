// libcmark from Debian's libcmark-dev (cmark 0.30). Note: 0.30 has no
// cmark_node_get_fenced; a non-empty info string already means fenced.
#include <cmark.h>
