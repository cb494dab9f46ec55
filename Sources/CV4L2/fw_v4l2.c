#include "fw_v4l2.h"

#include <errno.h>
#include <fcntl.h>
#include <libv4l2.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

int fw_v4l2_open(const char *path, int *fd) {
    int result = v4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (result < 0) return errno;
    *fd = result;
    return 0;
}

int fw_v4l2_close(int fd) {
    return v4l2_close(fd) == 0 ? 0 : errno;
}

int fw_v4l2_mmap(int fd, size_t length, int64_t offset, void **address) {
    void *mapped = v4l2_mmap(NULL, length, PROT_READ, MAP_SHARED, fd, offset);
    if (mapped == MAP_FAILED) return errno;
    *address = mapped;
    return 0;
}

int fw_v4l2_munmap(void *address, size_t length) {
    return v4l2_munmap(address, length) == 0 ? 0 : errno;
}

static int request(int fd, unsigned long number, void *argument) {
    return v4l2_ioctl(fd, number, argument) == 0 ? 0 : errno;
}

int fw_v4l2_querycap(int fd, struct v4l2_capability *capability) { return request(fd, VIDIOC_QUERYCAP, capability); }
int fw_v4l2_enum_fmt(int fd, struct v4l2_fmtdesc *description) { return request(fd, VIDIOC_ENUM_FMT, description); }
int fw_v4l2_enum_framesizes(int fd, struct v4l2_frmsizeenum *size) { return request(fd, VIDIOC_ENUM_FRAMESIZES, size); }
int fw_v4l2_enum_frameintervals(int fd, struct v4l2_frmivalenum *interval) { return request(fd, VIDIOC_ENUM_FRAMEINTERVALS, interval); }
int fw_v4l2_g_fmt(int fd, struct v4l2_format *format) { return request(fd, VIDIOC_G_FMT, format); }
int fw_v4l2_s_fmt(int fd, struct v4l2_format *format) { return request(fd, VIDIOC_S_FMT, format); }
int fw_v4l2_s_parm(int fd, struct v4l2_streamparm *parameters) { return request(fd, VIDIOC_S_PARM, parameters); }
int fw_v4l2_reqbufs(int fd, struct v4l2_requestbuffers *buffers) { return request(fd, VIDIOC_REQBUFS, buffers); }
int fw_v4l2_querybuf(int fd, struct v4l2_buffer *buffer) { return request(fd, VIDIOC_QUERYBUF, buffer); }
int fw_v4l2_qbuf(int fd, struct v4l2_buffer *buffer) { return request(fd, VIDIOC_QBUF, buffer); }
int fw_v4l2_dqbuf(int fd, struct v4l2_buffer *buffer) { return request(fd, VIDIOC_DQBUF, buffer); }

int fw_v4l2_streamon(int fd, uint32_t type) {
    int value = (int)type;
    return request(fd, VIDIOC_STREAMON, &value);
}

int fw_v4l2_streamoff(int fd, uint32_t type) {
    int value = (int)type;
    return request(fd, VIDIOC_STREAMOFF, &value);
}

int fw_v4l2_output_open(const char *path, int *fd) {
    int result = open(path, O_RDWR | O_CLOEXEC);
    if (result < 0) return errno;
    *fd = result;
    return 0;
}

int fw_v4l2_output_close(int fd) {
    return close(fd) == 0 ? 0 : errno;
}

int fw_v4l2_output_s_fmt(int fd, struct v4l2_format *format) {
    return ioctl(fd, VIDIOC_S_FMT, format) == 0 ? 0 : errno;
}

static int output_request(int fd, unsigned long number, void *argument) {
    while (1) {
        if (ioctl(fd, number, argument) == 0) return 0;
        if (errno != EINTR) return errno;
    }
}

int fw_v4l2_output_reqbufs(int fd, struct v4l2_requestbuffers *request) { return output_request(fd, VIDIOC_REQBUFS, request); }
int fw_v4l2_output_querybuf(int fd, struct v4l2_buffer *buffer) { return output_request(fd, VIDIOC_QUERYBUF, buffer); }
int fw_v4l2_output_qbuf(int fd, struct v4l2_buffer *buffer) { return output_request(fd, VIDIOC_QBUF, buffer); }
int fw_v4l2_output_dqbuf(int fd, struct v4l2_buffer *buffer) { return output_request(fd, VIDIOC_DQBUF, buffer); }

int fw_v4l2_output_streamon(int fd) {
    int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    return output_request(fd, VIDIOC_STREAMON, &type);
}

int fw_v4l2_output_mmap(int fd, size_t length, int64_t offset, void **address) {
    void *mapped = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
    if (mapped == MAP_FAILED) return errno;
    *address = mapped;
    return 0;
}

int fw_v4l2_output_munmap(void *address, size_t length) {
    return munmap(address, length) == 0 ? 0 : errno;
}
