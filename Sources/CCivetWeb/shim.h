#pragma once
// civetweb (Debian libcivetweb-dev): the HTTP and WebSocket server of Thrum Studio. Debian ships no
// pkg-config file for it, so the module links libcivetweb directly.
#include <civetweb.h>
