/* atomic.c — whole-or-nothing output files.
 *
 * A crash, a bad value found halfway, or a full disk must never leave a
 * truncated topology that a simulator would then read as if it were real, so
 * writers go to "<path>.tmp.<pid>.<k>" beside the target and rename(2) at the
 * end, which is atomic within one file system. The temporary is created with
 * open(O_EXCL, 0666) rather than mkstemp(), whose mode 0600 would carry over to
 * the final file and hide it from other users; 0666 lets the umask decide, as
 * for any file a program writes.
 *
 * Renaming must only ever replace a regular file. A target that exists and is
 * something else — /dev/null, /dev/stdout (a symlink to /proc/self/fd/1), a
 * FIFO — is written in place, as the user asked (it cannot be made atomic
 * anyway); renaming over it would replace the device or the link with a
 * regular file. A symlink to a regular file is followed, so the link stays
 * and its target is replaced. A replaced file keeps its permission bits and,
 * where the writer may set them (root), its owner and group.
 *
 * A target with more than one hard link would be split from its other names
 * by a rename, so there the finished temporary is copied into the target in
 * place at commit: every name sees the new content, a failure before the
 * commit leaves the target untouched, and only a crash during that final
 * copy could leave it short.
 *
 * The temporaries of open writes are kept in a small table that a signal
 * handler can walk (moore_atomic_remove_pending), so Ctrl-C, SIGTERM or
 * SIGHUP in the middle of a large write leaves no "*.tmp.PID.N" behind. */
#include "moore/io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ATOMIC_PENDING_MAX 16
static char *volatile atomic_pending[ATOMIC_PENDING_MAX];

static void pending_add(char *tmp)
{
    for (int i = 0; i < ATOMIC_PENDING_MAX; i++)
        if (!atomic_pending[i]) {
            atomic_pending[i] = tmp;
            return;
        }
}

/* Called once the temporary is renamed or removed (a handler that runs
 * before this only unlinks a name that no longer exists). */
static void pending_drop(const char *tmp)
{
    for (int i = 0; i < ATOMIC_PENDING_MAX; i++)
        if (atomic_pending[i] == tmp)
            atomic_pending[i] = NULL;
}

void moore_atomic_remove_pending(void)
{
    for (int i = 0; i < ATOMIC_PENDING_MAX; i++) {
        char *tmp = atomic_pending[i];
        if (tmp)
            unlink(tmp);
    }
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = moore_malloc(n, 1, NULL);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Writes straight into an existing non-regular file (device, FIFO). */
static int open_in_place(const char *path, moore_atomic_file *af, moore_error *err)
{
    af->f = fopen(path, "w");
    if (!af->f)
        return moore_error_set(err, MOORE_EIO, "cannot write '%s': %s", path, strerror(errno));
    af->path = dup_str(path);
    if (!af->path) {
        moore_atomic_abort(af);
        return moore_error_set(err, MOORE_ENOMEM, "out of memory");
    }
    return MOORE_OK;
}

int moore_atomic_open(const char *path, moore_atomic_file *af, moore_error *err)
{
    memset(af, 0, sizeof *af);
    if (strcmp(path, "-") == 0) {
        af->f = stdout;
        return MOORE_OK;
    }
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return moore_error_set(err, MOORE_EIO, "cannot write '%s': it is a directory", path);
        if (!S_ISREG(st.st_mode))
            return open_in_place(path, af, err);
    }
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
        af->path = realpath(path, NULL); /* NULL for a dangling link: replace the link */
    if (!af->path)
        af->path = dup_str(path);
    size_t n = af->path ? strlen(af->path) : 0;
    af->tmp = moore_malloc(n + 40, 1, NULL);
    int rc = MOORE_OK, fd = -1;
    if (!af->path || !af->tmp) {
        rc = moore_error_set(err, MOORE_ENOMEM, "out of memory");
        goto done;
    }
    for (int k = 0; k < 1000 && fd < 0; k++) {
        snprintf(af->tmp, n + 40, "%s.tmp.%ld.%d", af->path, (long)getpid(), k);
        fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        rc = moore_error_set(err, MOORE_EIO, "cannot write '%s': %s", path, strerror(errno));
        free(af->tmp); /* not created: nothing to remove */
        af->tmp = NULL;
        goto done;
    }
    pending_add(af->tmp);
    /* Rewriting an existing file keeps its owner and group where the writer
     * may set them (else the new file belongs to the writer), then its
     * permission bits (after fchown, which may clear set-id bits). */
    if (stat(af->path, &st) == 0 && S_ISREG(st.st_mode)) {
        int owned = fchown(fd, st.st_uid, st.st_gid) == 0; /* else: the writer's */
        (void)owned;
        (void)fchmod(fd, st.st_mode & 07777);
    }
    af->f = fdopen(fd, "w");
    if (!af->f) {
        close(fd);
        rc = moore_error_set(err, MOORE_EIO, "cannot write '%s'", path);
    }
done:
    if (rc)
        moore_atomic_abort(af);
    return rc;
}

/* Copies the finished temporary into an existing file in place (its inode,
 * and so every hard link to it, stays). 0 on success, else errno is set. */
static int copy_into(const char *tmp, const char *path)
{
    int in = open(tmp, O_RDONLY | O_CLOEXEC);
    int out = in < 0 ? -1 : open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    int rc = in < 0 || out < 0 ? -1 : 0;
    char buf[1 << 16];
    for (ssize_t n; !rc && (n = read(in, buf, sizeof buf)) != 0;) {
        for (ssize_t off = 0; !rc && n > 0 && off < n;) {
            ssize_t w = write(out, buf + off, (size_t)(n - off));
            rc = w < 0 ? -1 : 0;
            off += w > 0 ? w : 0;
        }
        rc = n < 0 ? -1 : rc;
    }
    int e = errno;
    if (out >= 0 && close(out) != 0 && !rc) {
        rc = -1;
        e = errno;
    }
    if (in >= 0)
        close(in);
    errno = e;
    return rc;
}

int moore_atomic_commit(moore_atomic_file *af, moore_error *err)
{
    errno = 0;
    int bad = fflush(af->f) != 0 || ferror(af->f);
    if (!af->tmp) { /* stdout, or a device or FIFO written in place */
        if (af->f != stdout)
            bad |= fclose(af->f) != 0;
        af->f = NULL;
        int e = errno;
        int rc = bad ? moore_error_set(err, MOORE_EIO, "cannot write '%s': %s",
                                       af->path ? af->path : "standard output",
                                       e ? strerror(e) : "write failed")
                     : MOORE_OK;
        free(af->path);
        af->path = NULL;
        return rc;
    }
    bad |= fclose(af->f) != 0;
    af->f = NULL;
    struct stat st;
    int linked = stat(af->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1;
    if (!bad && linked) {
        bad = copy_into(af->tmp, af->path) != 0;
        if (!bad) {
            moore_atomic_abort(af); /* removes the temporary */
            return MOORE_OK;
        }
    }
    if (bad || rename(af->tmp, af->path) != 0) {
        int e = errno;
        int rc = moore_error_set(err, MOORE_EIO, "cannot write '%s': %s", af->path,
                                 e ? strerror(e) : "write failed");
        moore_atomic_abort(af);
        return rc;
    }
    pending_drop(af->tmp);
    free(af->tmp);
    free(af->path);
    af->tmp = af->path = NULL;
    return MOORE_OK;
}

void moore_atomic_abort(moore_atomic_file *af)
{
    if (af->f && af->f != stdout)
        fclose(af->f);
    af->f = NULL;
    if (af->tmp)
        remove(af->tmp);
    pending_drop(af->tmp);
    free(af->tmp);
    free(af->path);
    af->tmp = af->path = NULL;
}
