#include "fw_mqtt.h"

#include <mosquitto.h>
#include <pthread.h>
#include <stdlib.h>

struct fw_mqtt {
    struct mosquitto *mosq;
    pthread_mutex_t lock;
    int connected;
    long long acknowledged;
    long long connections;
};

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
    // A broker that is down now is not an error: the network thread keeps trying.
    int rc = mosquitto_connect_async(client->mosq, host, port, keepalive_s);
    if (rc != MOSQ_ERR_SUCCESS && rc != MOSQ_ERR_ERRNO) {
        mosquitto_destroy(client->mosq);
        pthread_mutex_destroy(&client->lock);
        free(client);
        return rc;
    }
    rc = mosquitto_loop_start(client->mosq);
    if (rc != MOSQ_ERR_SUCCESS) {
        mosquitto_destroy(client->mosq);
        pthread_mutex_destroy(&client->lock);
        free(client);
        return rc;
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
    mosquitto_disconnect(client->mosq);
    mosquitto_loop_stop(client->mosq, true);
    mosquitto_destroy(client->mosq);
    pthread_mutex_destroy(&client->lock);
    free(client);
}

const char *fw_mqtt_error(int code) { return mosquitto_strerror(code); }
