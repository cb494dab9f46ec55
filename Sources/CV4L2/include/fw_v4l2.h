#ifndef FW_V4L2_H
#define FW_V4L2_H

// Typed wrappers over libv4l2 for the calls Swift cannot make itself: `v4l2_open` and
// `v4l2_ioctl` are variadic, and the VIDIOC_* request numbers are function-like macros.
// Every call returns 0 on success or the errno value on failure (never -1), so Swift never
// reads a global errno that another call may have overwritten.

#include <linux/videodev2.h>
#include <stddef.h>
#include <stdint.h>

/// Opens a device node read-write and non-blocking through libv4l2. Returns 0 and the file
/// descriptor in `*fd`, or the errno value.
int fw_v4l2_open(const char *path, int *fd);
/// Closes a descriptor from `fw_v4l2_open`.
int fw_v4l2_close(int fd);
/// Maps `length` bytes of a driver buffer at `offset` (from VIDIOC_QUERYBUF), read-only and
/// shared. Returns 0 and the address in `*address`, or the errno value.
int fw_v4l2_mmap(int fd, size_t length, int64_t offset, void **address);
/// Unmaps a buffer mapped by `fw_v4l2_mmap`.
int fw_v4l2_munmap(void *address, size_t length);

int fw_v4l2_querycap(int fd, struct v4l2_capability *capability);
int fw_v4l2_enum_fmt(int fd, struct v4l2_fmtdesc *description);
int fw_v4l2_enum_framesizes(int fd, struct v4l2_frmsizeenum *size);
int fw_v4l2_enum_frameintervals(int fd, struct v4l2_frmivalenum *interval);
int fw_v4l2_g_fmt(int fd, struct v4l2_format *format);
int fw_v4l2_s_fmt(int fd, struct v4l2_format *format);
int fw_v4l2_s_parm(int fd, struct v4l2_streamparm *parameters);
int fw_v4l2_reqbufs(int fd, struct v4l2_requestbuffers *request);
int fw_v4l2_querybuf(int fd, struct v4l2_buffer *buffer);
int fw_v4l2_qbuf(int fd, struct v4l2_buffer *buffer);
int fw_v4l2_dqbuf(int fd, struct v4l2_buffer *buffer);
/// VIDIOC_STREAMON / VIDIOC_STREAMOFF for a buffer type (V4L2_BUF_TYPE_VIDEO_CAPTURE).
int fw_v4l2_streamon(int fd, uint32_t type);
int fw_v4l2_streamoff(int fd, uint32_t type);

/// Opens a V4L2 output node (e.g. v4l2loopback) read-write with plain open(2): libv4l2 only
/// wraps capture. Returns 0 and the descriptor in `*fd`, or the errno value.
int fw_v4l2_output_open(const char *path, int *fd);
/// Closes a descriptor from `fw_v4l2_output_open`.
int fw_v4l2_output_close(int fd);
/// VIDIOC_S_FMT on an output node (`format->type` must be V4L2_BUF_TYPE_VIDEO_OUTPUT).
int fw_v4l2_output_s_fmt(int fd, struct v4l2_format *format);
/// VIDIOC_REQBUFS, VIDIOC_QUERYBUF, VIDIOC_QBUF, VIDIOC_DQBUF and VIDIOC_STREAMON on an output node
/// (streaming I/O: the writer fills mapped buffers and queues them with its own timestamps).
int fw_v4l2_output_reqbufs(int fd, struct v4l2_requestbuffers *request);
int fw_v4l2_output_querybuf(int fd, struct v4l2_buffer *buffer);
int fw_v4l2_output_qbuf(int fd, struct v4l2_buffer *buffer);
int fw_v4l2_output_dqbuf(int fd, struct v4l2_buffer *buffer);
int fw_v4l2_output_streamon(int fd);
/// Maps an output buffer read-write and shared. Returns 0 and the address in `*address`, or the
/// errno value.
int fw_v4l2_output_mmap(int fd, size_t length, int64_t offset, void **address);
/// Unmaps a buffer mapped by `fw_v4l2_output_mmap`.
int fw_v4l2_output_munmap(void *address, size_t length);

#endif
