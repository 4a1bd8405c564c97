// The civetweb functions Thrum Studio calls, each loading libcivetweb.so.1 at its first call and then calling
// the library's own. Hidden, so that neither thrum nor libthrum offers them to other code in the process.
// Only mg_start2 can be the first call; the others need a server that mg_start2 started.
#include "CCivetWeb.h"

#include <CDeferredLibrary.h>
#include <stdio.h>

#define DEFERRED __attribute__((visibility("hidden")))

static struct {
    struct mg_context *(*mg_start2)(struct mg_init_data *, struct mg_error_data *);
    void (*mg_stop)(struct mg_context *);
    int (*mg_get_server_ports)(const struct mg_context *, int, struct mg_server_port *);
    void (*mg_set_request_handler)(struct mg_context *, const char *, mg_request_handler, void *);
    void (*mg_set_websocket_handler)(struct mg_context *, const char *, mg_websocket_connect_handler,
                                     mg_websocket_ready_handler, mg_websocket_data_handler,
                                     mg_websocket_close_handler, void *);
    const struct mg_request_info *(*mg_get_request_info)(const struct mg_connection *);
    int (*mg_get_var2)(const char *, size_t, const char *, char *, size_t, size_t);
    int (*mg_read)(struct mg_connection *, void *, size_t);
    int (*mg_write)(struct mg_connection *, const void *, size_t);
    int (*mg_response_header_start)(struct mg_connection *, int);
    int (*mg_response_header_add)(struct mg_connection *, const char *, const char *, int);
    int (*mg_response_header_send)(struct mg_connection *);
    int (*mg_websocket_write)(struct mg_connection *, int, const char *, size_t);
} civetweb;
static const char *const names[] = {
    "mg_start2", "mg_stop", "mg_get_server_ports", "mg_set_request_handler", "mg_set_websocket_handler",
    "mg_get_request_info", "mg_get_var2", "mg_read", "mg_write", "mg_response_header_start",
    "mg_response_header_add", "mg_response_header_send", "mg_websocket_write",
};
_Static_assert(sizeof names / sizeof names[0] == sizeof civetweb / sizeof(void *), "one name per function");

static thrum_deferred_library library = THRUM_DEFERRED_LIBRARY("libcivetweb.so.1", "libcivetweb1", names, civetweb);

static int ready(void) { return thrum_deferred_library_ready(&library); }

DEFERRED struct mg_context *mg_start2(struct mg_init_data *init, struct mg_error_data *error) {
    if (ready()) return civetweb.mg_start2(init, error);
    if (error != NULL && error->text != NULL && error->text_buffer_size > 0) {
        snprintf(error->text, error->text_buffer_size, "%s", library.error);
    }
    return NULL;
}

// The rest are reached only through a server that mg_start2 started, so the library is loaded.

DEFERRED int mg_get_var2(const char *data, size_t data_length, const char *name, char *value, size_t value_size,
                         size_t occurrence) {
    return civetweb.mg_get_var2(data, data_length, name, value, value_size, occurrence);
}

DEFERRED void mg_stop(struct mg_context *context) { civetweb.mg_stop(context); }

DEFERRED int mg_get_server_ports(const struct mg_context *context, int size, struct mg_server_port *ports) {
    return civetweb.mg_get_server_ports(context, size, ports);
}

DEFERRED void mg_set_request_handler(struct mg_context *context, const char *uri, mg_request_handler handler,
                                     void *data) {
    civetweb.mg_set_request_handler(context, uri, handler, data);
}

DEFERRED void mg_set_websocket_handler(struct mg_context *context, const char *uri,
                                       mg_websocket_connect_handler connect, mg_websocket_ready_handler ready,
                                       mg_websocket_data_handler data, mg_websocket_close_handler close,
                                       void *user_data) {
    civetweb.mg_set_websocket_handler(context, uri, connect, ready, data, close, user_data);
}

DEFERRED const struct mg_request_info *mg_get_request_info(const struct mg_connection *connection) {
    return civetweb.mg_get_request_info(connection);
}

DEFERRED int mg_read(struct mg_connection *connection, void *buffer, size_t length) {
    return civetweb.mg_read(connection, buffer, length);
}

DEFERRED int mg_write(struct mg_connection *connection, const void *buffer, size_t length) {
    return civetweb.mg_write(connection, buffer, length);
}

DEFERRED int mg_response_header_start(struct mg_connection *connection, int status) {
    return civetweb.mg_response_header_start(connection, status);
}

DEFERRED int mg_response_header_add(struct mg_connection *connection, const char *header, const char *value,
                                    int value_length) {
    return civetweb.mg_response_header_add(connection, header, value, value_length);
}

DEFERRED int mg_response_header_send(struct mg_connection *connection) {
    return civetweb.mg_response_header_send(connection);
}

DEFERRED int mg_websocket_write(struct mg_connection *connection, int opcode, const char *data, size_t length) {
    return civetweb.mg_websocket_write(connection, opcode, data, length);
}
