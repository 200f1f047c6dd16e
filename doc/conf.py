# SPDX-License-Identifier: GPL-2.0-only
#
# Minimal Sphinx configuration for the tagger module's manual, standalone:
#
#   sphinx-build -W -b html doc /tmp/tagger-doc
#
# Inside an ns-3 tree the chapter doc/tagger.rst is built by ns-3's models
# manual instead (with its own conf.py); this file is not used there.

project = "tagger"
author = "the tagger authors"

# index.rst holds the toctree; tagger.rst is the module's chapter.  The
# chapter pulls in its parts with ".. include::", so the parts (and the
# generated rules-table.rst) are not documents of their own.
root_doc = "index"
exclude_patterns = ["tagger-*.rst", "rules-table.rst", "table-vi*.rst", "_build"]

# Formulas use the math directive and role (MathJax in HTML).
extensions = ["sphinx.ext.mathjax"]

html_theme = "alabaster"
html_title = "tagger: PFC deadlock prevention for ns-3"
