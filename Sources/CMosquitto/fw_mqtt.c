#include "fw_mqtt.h"

#include <mosquitto.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fw_mqtt {
    struct mosquitto *mosq;
    pthread_mutex_t lock;
    int connected;
    long long acknowledged;
    long long connections;
    // The first connection is made by a thread of ours (libmosquitto's loop does not retry a
    // connection that never succeeded); then libmosquitto's loop takes over, reconnecting itself.
    pthread_t connector;
    int stopping;
    int loop_started;
    char *host;
    int port;
    int keepalive_s;
    int max_delay_s;
};

static int stopping(fw_mqtt *client) {
    pthread_mutex_lock(&client->lock);
    int result = client->stopping;
    pthread_mutex_unlock(&client->lock);
    return result;
}

static void *connect_then_loop(void *data) {
    fw_mqtt *client = data;
    int delay = 1;
    while (!stopping(client)) {
        if (mosquitto_connect(client->mosq, client->host, client->port, client->keepalive_s) == MOSQ_ERR_SUCCESS) {
            if (mosquitto_loop_start(client->mosq) == MOSQ_ERR_SUCCESS) {
                pthread_mutex_lock(&client->lock);
                client->loop_started = 1;
                pthread_mutex_unlock(&client->lock);
            }
            return NULL;
        }
        for (int n = 0; n < delay * 10 && !stopping(client); n++) {
            struct timespec tenth = {0, 100000000};
            nanosleep(&tenth, NULL);
        }
        delay = delay * 2 > client->max_delay_s ? client->max_delay_s : delay * 2;
    }
    return NULL;
}

static pthread_once_t fw_mqtt_init_once = PTHREAD_ONCE_INIT;
static void fw_mqtt_init(void) { mosquitto_lib_init(); }

static void on_connect(struct mosquitto *mosq, void *data, int rc) {
    (void)mosq;
    fw_mqtt *client = data;
    pthread_mutex_lock(&client->lock);
    client->connected = rc == 0;
    if (rc == 0) client->connections += 1;
    pthread_mutex_unlock(&client->lock);
}

static void on_disconnect(struct mosquitto *mosq, void *data, int rc) {
    (void)mosq;
    (void)rc;
    fw_mqtt *client = data;
    pthread_mutex_lock(&client->lock);
    client->connected = 0;
    pthread_mutex_unlock(&client->lock);
}

static void on_publish(struct mosquitto *mosq, void *data, int mid) {
    (void)mosq;
    (void)mid;
    fw_mqtt *client = data;
    pthread_mutex_lock(&client->lock);
    client->acknowledged += 1;
    pthread_mutex_unlock(&client->lock);
}

int fw_mqtt_start(const char *client_id, const char *host, int port, int keepalive_s, int max_delay_s, fw_mqtt **out) {
    *out = NULL;
    pthread_once(&fw_mqtt_init_once, fw_mqtt_init);
    fw_mqtt *client = calloc(1, sizeof(fw_mqtt));
    if (!client) return MOSQ_ERR_NOMEM;
    pthread_mutex_init(&client->lock, NULL);
    client->mosq = mosquitto_new(client_id, true, client);
    if (!client->mosq) {
        pthread_mutex_destroy(&client->lock);
        free(client);
        return MOSQ_ERR_NOMEM;
    }
    mosquitto_connect_callback_set(client->mosq, on_connect);
    mosquitto_disconnect_callback_set(client->mosq, on_disconnect);
    mosquitto_publish_callback_set(client->mosq, on_publish);
    mosquitto_reconnect_delay_set(client->mosq, 1, (unsigned)max_delay_s, true);
    // Unlimited in-flight messages: the Swift side bounds what it hands over.
    mosquitto_max_inflight_messages_set(client->mosq, 0);
    client->host = strdup(host);
    client->port = port;
    client->keepalive_s = keepalive_s;
    client->max_delay_s = max_delay_s < 1 ? 1 : max_delay_s;
    // A broker that is down now is not an error: the connector keeps trying.
    if (!client->host || pthread_create(&client->connector, NULL, connect_then_loop, client) != 0) {
        free(client->host);
        mosquitto_destroy(client->mosq);
        pthread_mutex_destroy(&client->lock);
        free(client);
        return MOSQ_ERR_NOMEM;
    }
    *out = client;
    return MOSQ_ERR_SUCCESS;
}

int fw_mqtt_publish(fw_mqtt *client, const char *topic, const void *payload, size_t length, int qos, int retain, int *mid) {
    return mosquitto_publish(client->mosq, mid, topic, (int)length, payload, qos, retain != 0);
}

void fw_mqtt_status(fw_mqtt *client, int *connected, long long *acknowledged, long long *connections) {
    pthread_mutex_lock(&client->lock);
    *connected = client->connected;
    *acknowledged = client->acknowledged;
    *connections = client->connections;
    pthread_mutex_unlock(&client->lock);
}

void fw_mqtt_stop(fw_mqtt *client) {
    pthread_mutex_lock(&client->lock);
    client->stopping = 1;
    pthread_mutex_unlock(&client->lock);
    pthread_join(client->connector, NULL);
    if (client->loop_started) {
        mosquitto_disconnect(client->mosq);
        mosquitto_loop_stop(client->mosq, true);
    }
    mosquitto_destroy(client->mosq);
    free(client->host);
    pthread_mutex_destroy(&client->lock);
    free(client);
}

const char *fw_mqtt_error(int code) { return mosquitto_strerror(code); }
