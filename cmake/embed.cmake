# Turns a text file into a header holding it as a string_view constant.
file(READ ${INPUT} content)
set(delim "rooflab_embed")
file(WRITE ${OUTPUT} "#pragma once\n#include <string_view>\nnamespace rooflab::embedded {\ninline constexpr std::string_view ${SYMBOL} = R\"${delim}(${content})${delim}\";\n}\n")
