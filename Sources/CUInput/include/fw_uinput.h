#ifndef FW_UINPUT_H
#define FW_UINPUT_H

// Linux uinput for Swift: a virtual absolute pointer (ABS_X/ABS_Y 0…FW_UINPUT_MAX, left and right
// buttons). The UI_* requests are macros Swift cannot call. Every function returns 0 or the errno
// value.

#define FW_UINPUT_MAX 65535

/// Opens `path` (normally /dev/uinput) and creates the device; `*fd` gets its descriptor.
int fw_uinput_create(const char *path, const char *name, int *fd);
/// Moves the pointer to (x, y) in 0…FW_UINPUT_MAX.
int fw_uinput_move(int fd, int x, int y);
/// Presses and releases a button: 0 left, 1 right.
int fw_uinput_click(int fd, int button);
/// Destroys the device and closes the descriptor.
void fw_uinput_destroy(int fd);

#endif
