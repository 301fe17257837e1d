#ifndef MOCKSTACK_CLIBEVENT_SHIM_H
#define MOCKSTACK_CLIBEVENT_SHIM_H

// libc first: libevent's event-config.h defines _GNU_SOURCE, which otherwise gives fd_set a
// second, conflicting definition in this module and breaks clean debug builds.
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <fcntl.h>
#include <unistd.h>
#include <signal.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/thread.h>
#include <event2/util.h>

#endif
