#include "CEvhttpRequest.h"
#include <event2/http.h>
#include <event2/http_struct.h>

void mockstack_evhttp_request_clear_chunked(struct evhttp_request *request) {
    request->chunked = 0;
}
