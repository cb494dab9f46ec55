#ifndef FW_MQTT_H
#define FW_MQTT_H

// A small shim over libmosquitto for Swift: one client with its network loop on a thread of
// libmosquitto's own, reconnecting with backoff; the callbacks only update counters that Swift
// reads with `fw_mqtt_status`, so no Swift code runs on libmosquitto's thread. Functions return
// a MOSQ_ERR_* code (0 on success); `fw_mqtt_error` describes one.

#include <stddef.h>

typedef struct fw_mqtt fw_mqtt;

/// Creates a client (clean session) connecting to host:port in the background: until the first
/// connection succeeds a thread of the shim's retries after 1, 2, 4 … up to `max_delay_s` seconds,
/// then libmosquitto's network thread runs the client and reconnects with the same backoff. On
/// failure returns the error and leaves `*client` NULL.
int fw_mqtt_start(const char *client_id, const char *host, int port, int keepalive_s, int max_delay_s, fw_mqtt **client);
/// Queues one message for sending; `*mid` gets its message id.
int fw_mqtt_publish(fw_mqtt *client, const char *topic, const void *payload, size_t length, int qos, int retain, int *mid);
/// Whether the client is connected now, and how many messages the broker has acknowledged
/// (QoS 1/2) or were written to the socket (QoS 0) since the start.
void fw_mqtt_status(fw_mqtt *client, int *connected, long long *acknowledged, long long *connections);
/// Disconnects, stops the threads and frees the client (a connection attempt under way to an
/// unreachable host is waited for).
void fw_mqtt_stop(fw_mqtt *client);
/// A message for a MOSQ_ERR_* code.
const char *fw_mqtt_error(int code);

#endif
