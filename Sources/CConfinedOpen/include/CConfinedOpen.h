#ifndef THRUM_CCONFINEDOPEN_H
#define THRUM_CCONFINEDOPEN_H

/// openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS: opens `path` (relative) below the folder
/// `dirfd`, failing with EXDEV when `..`, an absolute path or a symbolic link would leave that folder.
/// `flags` are open(2) flags (O_CLOEXEC is added). Returns the new descriptor, or -1 with errno set
/// (ENOSYS when the kernel has no openat2, EPERM when a seccomp filter blocks it).
int thrum_open_beneath(int dirfd, const char *path, int flags);

/// O_PATH (glibc declares it only for _GNU_SOURCE, which Swift's Glibc module does not define).
extern const int thrum_o_path;

#endif
