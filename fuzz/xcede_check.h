// Moved: the xcede_fuzz and states_fuzz input layout and drivers (issue 13).
#include "fuzz/xcede_input.h"
