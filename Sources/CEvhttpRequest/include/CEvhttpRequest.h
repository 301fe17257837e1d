#ifndef MOCKSTACK_CEVHTTPREQUEST_H
#define MOCKSTACK_CEVHTTPREQUEST_H

// One field of evhttp's request that its API does not reach. The struct stays incomplete here
// (Swift keeps seeing an OpaquePointer); only the .c file includes http_struct.h.
struct evhttp_request;

/// evhttp marks a request `chunked` when its *body* came chunked, and the same flag makes
/// evhttp_send_reply_end append a last-chunk ("0\r\n\r\n") to the *reply*. mockstack writes
/// whole replies with a Content-Length itself, so it clears the flag before ending one;
/// otherwise those five bytes would be read as the start of the next response.
void mockstack_evhttp_request_clear_chunked(struct evhttp_request *request);

#endif
