#include "fw_uinput.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int emit(int fd, int type, int code, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = (unsigned short)type;
    event.code = (unsigned short)code;
    event.value = value;
    return write(fd, &event, sizeof event) == (ssize_t)sizeof event ? 0 : errno;
}

static int absolute_axis(int fd, int code) {
    struct uinput_abs_setup axis;
    memset(&axis, 0, sizeof axis);
    axis.code = (unsigned short)code;
    axis.absinfo.minimum = 0;
    axis.absinfo.maximum = FW_UINPUT_MAX;
    return ioctl(fd, UI_ABS_SETUP, &axis) == 0 ? 0 : errno;
}

int fw_uinput_create(const char *path, const char *name, int *out) {
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return errno;
    int rc = 0;
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) || ioctl(fd, UI_SET_KEYBIT, BTN_LEFT) || ioctl(fd, UI_SET_KEYBIT, BTN_RIGHT) ||
        ioctl(fd, UI_SET_EVBIT, EV_ABS) || ioctl(fd, UI_SET_ABSBIT, ABS_X) || ioctl(fd, UI_SET_ABSBIT, ABS_Y) ||
        ioctl(fd, UI_SET_EVBIT, EV_SYN) || ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_POINTER)) {
        rc = errno;
    }
    if (!rc) rc = absolute_axis(fd, ABS_X);
    if (!rc) rc = absolute_axis(fd, ABS_Y);
    if (!rc) {
        struct uinput_setup setup;
        memset(&setup, 0, sizeof setup);
        setup.id.bustype = BUS_VIRTUAL;
        setup.id.vendor = 0x1d6b;
        setup.id.product = 0xfacE;
        strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
        if (ioctl(fd, UI_DEV_SETUP, &setup) || ioctl(fd, UI_DEV_CREATE)) rc = errno;
    }
    if (rc) {
        close(fd);
        return rc;
    }
    *out = fd;
    return 0;
}

int fw_uinput_move(int fd, int x, int y) {
    int rc = emit(fd, EV_ABS, ABS_X, x);
    if (!rc) rc = emit(fd, EV_ABS, ABS_Y, y);
    if (!rc) rc = emit(fd, EV_SYN, SYN_REPORT, 0);
    return rc;
}

int fw_uinput_click(int fd, int button) {
    int code = button == 1 ? BTN_RIGHT : BTN_LEFT;
    int rc = emit(fd, EV_KEY, code, 1);
    if (!rc) rc = emit(fd, EV_SYN, SYN_REPORT, 0);
    if (!rc) rc = emit(fd, EV_KEY, code, 0);
    if (!rc) rc = emit(fd, EV_SYN, SYN_REPORT, 0);
    return rc;
}

void fw_uinput_destroy(int fd) {
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
}
