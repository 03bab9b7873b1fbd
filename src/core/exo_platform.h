/* exo_platform.h: everything the core needs from the operating system.
 *
 * The rest of src/core calls only this API for files, large memory blocks,
 * I/O hints and system queries; exo_platform.c alone includes system
 * headers beyond ISO C (plus pthreads: MinGW-w64 ships winpthreads).
 * Three builds:
 *   Linux                 every extension below is used where it exists;
 *   POSIX (macOS, BSD, or any system with -DEXO_PORTABLE)
 *                         plain POSIX 2008: no fallocate hole punching, no
 *                         sync_file_range, posix_fadvise, mremap,
 *                         MADV_HUGEPAGE, /proc; -DEXO_PORTABLE makes a Linux
 *                         build take exactly this path (CI: make portable-test);
 *   Windows (_WIN32)      Win32 calls, wide-character paths, binary mode.
 *
 * Contract:
 * - Paths are UTF-8 (R hands UTF-8 strings). On Windows they are converted
 *   to UTF-16 and opened with the wide-character API, so names with spaces
 *   and non-ASCII characters work whatever the ANSI code page is.
 * - Descriptors are C runtime ints: POSIX descriptors, or on Windows CRT
 *   descriptors wrapping a HANDLE opened in binary mode, not inheritable by
 *   child processes (close-on-exec on POSIX), shared for reading, writing and
 *   deletion (so a run file can be unlinked while another thread reads it).
 * - Offsets and sizes are 64-bit everywhere (Windows' long is 32 bits).
 * - exo_pread / exo_pwrite never use or move a shared file position (pread
 *   and pwrite; on Windows ReadFile/WriteFile with an OVERLAPPED offset), so
 *   threads may read one descriptor in parallel.
 * - Functions returning int give 0 on success and -1 with errno set on
 *   failure (Windows error codes are mapped to errno values), so callers
 *   report with exo_error_errno. Hints never fail.
 */
#ifndef EXO_PLATFORM_H
#define EXO_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* ---- which paths this build takes ------------------------------------ */
#if defined(_WIN32)
#define EXO_PLATFORM_NAME "windows"
#elif defined(__linux__) && !defined(EXO_PORTABLE)
#define EXO_PLATFORM_LINUX 1
#define EXO_PLATFORM_NAME "linux"
#else
#define EXO_PLATFORM_NAME "posix"
#endif

/* ---- files ------------------------------------------------------------ */
/* Whether '\\' also separates path components (Windows; '/' works too). */
#if defined(_WIN32)
#define EXO_PATH_BACKSLASH 1
#else
#define EXO_PATH_BACKSLASH 0
#endif

enum { EXO_OPEN_READ = 0,   /* read only */
       EXO_OPEN_RDWR = 1,   /* read and write an existing file */
       EXO_OPEN_CREATE = 2, /* write only; create or truncate (mode 0666 less umask) */
       EXO_OPEN_EXCL = 3,   /* write only; create, fail with EEXIST if it exists */
       EXO_OPEN_STREAM = 4,   /* write only to an existing file (a device, a
                               * FIFO), never created or truncated; on POSIX a
                               * FIFO without a reader fails at once with ENXIO
                               * instead of blocking (the caller may retry) */
       EXO_OPEN_APPEND = 5,   /* write only at the end of an existing file,
                               * never created or truncated */
       EXO_OPEN_INPUT = 6 };  /* read only, as EXO_OPEN_READ, but a FIFO is
                               * opened without waiting for a writer (POSIX:
                               * O_NONBLOCK, kept): read it with
                               * exo_read_wait, which waits in poll(), so the
                               * wait for a writer can be interrupted */
/* Descriptor, or -1 and errno. "/dev/stdin" names standard input on
 * Windows too (read only; closing the descriptor leaves fd 0 open). */
int exo_open(const char *path, int how);
int exo_close(int fd);
/* One read() at the current position (sequential readers of one thread,
 * pipes and FIFOs); at most 1 GiB per call; retries EINTR. Bytes read, 0 at
 * end of file, -1 and errno. */
int64_t exo_read(int fd, void *buf, size_t n);
/* One read() as exo_read, for a reader that asks its host between waits
 * whether to stop (exo_input). With timeout_ms >= 0 (a descriptor that can
 * block: pipe, FIFO, device, socket) it first waits with poll() at most
 * timeout_ms for something to read. Returns EXO_READ_AGAIN when nothing
 * came in that time, when a signal interrupted the wait or the read (EINTR,
 * never retried here) or when a non-blocking descriptor had nothing
 * (EAGAIN): the caller asks whether to stop, then calls again. timeout_ms
 * < 0 (a regular file): no wait; only EINTR gives EXO_READ_AGAIN.
 * Otherwise as exo_read. On Windows (no poll() for pipes) it is exo_read:
 * it blocks until data, end of file or an error. */
#define EXO_READ_AGAIN (-2)
int64_t exo_read_wait(int fd, void *buf, size_t n, int timeout_ms);
/* Positioned read/write of at most n bytes (1 GiB per call); retry EINTR.
 * Bytes transferred (0: end of file for reads), or -1 and errno. */
int64_t exo_pread(int fd, void *buf, size_t n, uint64_t off);
int64_t exo_pwrite(int fd, const void *buf, size_t n, uint64_t off);
/* Write all n bytes to standard output's descriptor (binary mode on
 * Windows). The caller flushes stdio's stdout first: the core never touches
 * stdio streams (R CMD check reports code that does). */
int exo_write_stdout(const void *buf, size_t n);
/* Write all n bytes at the descriptor's own position (pipes, FIFOs and
 * devices, which have no offsets); retries EINTR and short writes. */
int exo_write_all(int fd, const void *buf, size_t n);
/* Sleep about `ms` milliseconds. */
void exo_sleep_ms(unsigned ms);

enum { EXO_FILE_REGULAR = 1, EXO_FILE_DIR = 2, EXO_FILE_OTHER = 3 };
int exo_fd_stat(int fd, uint64_t *size, int *kind);
int exo_path_stat(const char *path, uint64_t *size, int *kind);

/* The identity of the file `path` names, links followed: (device, inode) on
 * POSIX, (volume serial number, file index) on Windows; two paths name the
 * same file exactly when their identities are equal. */
int exo_path_identity(const char *path, uint64_t id[2], int *kind);
/* The absolute form of an existing path with every link and "." / ".."
 * resolved, malloc'd; NULL and errno. */
char *exo_realpath(const char *path);
/* Whether `path` is a symbolic link, or a chain of them, that leads through
 * a process's descriptor: the path or a link's target lies under /proc/ or
 * /dev/fd/ (as /dev/stdout does). What such a path names is the open file
 * of a process (a pipe, a terminal, the file a shell redirected to), so it
 * is written through, never replaced (exo_output.h). Always 0 on Windows. */
int exo_path_is_fd_link(const char *path);

/* Set the size of a file open for writing (ftruncate; _chsize_s). */
int exo_set_size(int fd, uint64_t size);
int exo_remove(const char *path);                  /* unlink a file */
int exo_rename_replace(const char *from, const char *to); /* replaces `to` */
/* Create the directory `path` (its parent must exist; mode 0777 less the
 * umask); 0, or -1 and errno (EEXIST when something is there). */
int exo_make_dir(const char *path);
/* Create a fresh directory from `tmpl` ending in "XXXXXX" (filled in). */
int exo_make_tempdir(char *tmpl);
/* Create and open (EXO_OPEN_EXCL) a fresh file from `tmpl` ending in
 * "XXXXXX"; mode 0666 less the umask (what a plain creat() gives). */
int exo_make_tempfile(char *tmpl);
/* 1 when the directory `dir` has no entry (but "." and ".."), 0 when it
 * has one, -1 and errno when it cannot be read. */
int exo_dir_is_empty(const char *dir);
/* Remove every regular file in `dir`, then `dir`; 0 when it is gone. */
int exo_remove_dir(const char *dir);

/* ---- temporary directories of dead runs ------------------------------- */
/* A run's private directory "exolabel-XXXXXX" holds the marker file
 * EXO_TEMPLOCK_NAME, locked (flock, exclusive) by the run for its whole
 * life; the marker names the owner's process id and host. A run killed with
 * SIGKILL cannot remove its directory, but its lock goes with the process.
 * Where the lock primitive does not exist (Windows; EXO_TEMPLOCK_SUPPORTED 0)
 * nothing is locked and nothing is ever cleaned.
 *
 * exo_tempdir_lock: create the marker in `dir` (the directory just made by
 * exo_make_tempdir), lock it, then write its contents. Returns the
 * descriptor holding the lock (close it with exo_tempdir_unlock after the
 * directory is removed), or -1 when locking is not available: the directory
 * is then unmarked and never taken for a dead run's.
 *
 * exo_clean_stale_tempdirs: remove the directories of dead runs from
 * `base`. A directory is removed only when all of these hold: its name is
 * "exolabel-" and 6 letters or digits; it is a real directory (not a link)
 * owned by this user; it holds a regular-file marker with the marker text
 * naming this host and not this process; and its lock can be taken at once
 * (no live process, in this process or another, holds it; an owner on
 * another host is never judged). Inside it, files, links and nested
 * directories (to a depth of 8) are removed without following links, and
 * without ever leaving the filesystem that holds the marker: an entry on
 * another device (a mount point, and all below it) is neither entered nor
 * removed. A directory where anything is left behind (such a mount, a
 * deeper nesting, an entry that cannot be removed) keeps its marker, and is
 * not removed: it stays recognisable, and a later call removes the rest
 * once it can (say, after the unmount). Returns the number of directories
 * removed. */
/* exo_lock_file: take an exclusive lock (flock) on the open file `fd` at
 * once; 0, or -1 (held elsewhere, or no locks here: Windows). It goes with
 * the descriptor's close or the process's death.
 *
 * exo_clean_stale_temps: remove the files named `prefix` + 6 letters or
 * digits (prefix "dir/out.tsv.tmp-": the writers' temporaries beside an
 * output, exo_output.h) that are regular files (links are not followed)
 * owned by this user, last modified at least `min_age_s` seconds ago, and
 * whose lock can be taken at once (no live run holds it). Returns the number
 * removed; 0 where locks do not exist. */
int exo_lock_file(int fd);
int exo_clean_stale_temps(const char *prefix, unsigned min_age_s);

#define EXO_TEMPLOCK_NAME "exolabel.lock"
#if defined(_WIN32)
#define EXO_TEMPLOCK_SUPPORTED 0
#else
#define EXO_TEMPLOCK_SUPPORTED 1
#endif
int exo_tempdir_lock(const char *dir);
void exo_tempdir_unlock(int fd);
int exo_clean_stale_tempdirs(const char *base);

/* ---- hints (no-ops where the system has no such call) ------------------ */
/* The range (len 0: to the end) will be read front to back / soon
 * (posix_fadvise on Linux). */
void exo_hint_sequential(int fd, uint64_t off, uint64_t len);
void exo_hint_willneed(int fd, uint64_t off, uint64_t len);
/* Read what the page cache holds of the n bytes at off, from the first,
 * without waiting for the disk (Linux: preadv2 with RWF_NOWAIT): the bytes
 * read; 0 where nothing of it is cached, where the system cannot tell, and
 * on any error (errno kept). A reader whose whole buffer came this way
 * skips the WILLNEED hint for the next one: on a cached file the hint only
 * walks the page cache (benchmarks/notes/RESULTS-history.md, "Fewer radix passes"). */
size_t exo_pread_cached(int fd, void *buf, size_t n, uint64_t off);
/* Write-behind (sync_file_range on Linux): start writeback of a range, or
 * start it and wait for it to complete. */
void exo_writeback_start(int fd, uint64_t off, uint64_t len);
void exo_writeback_wait(int fd, uint64_t off, uint64_t len);
/* Return [0, upto) of a file open for writing to the file system while the
 * size stays (fallocate PUNCH_HOLE on Linux). Best effort; never fails.
 * Where it does not exist (EXO_PUNCH_SUPPORTED == 0) a run file keeps its
 * blocks until it is unlinked, once its last record has been merged: peak
 * temporary disk grows by the size of the runs merged at once (see
 * benchmarks/PORTABILITY.md). */
void exo_punch_hole(int fd, uint64_t upto);
/* The same for [off, off + len): whole blocks are freed, the bytes of
 * partial blocks at either end read as zeros afterwards. */
void exo_punch_range(int fd, uint64_t off, uint64_t len);
#if defined(EXO_PLATFORM_LINUX)
#define EXO_PUNCH_SUPPORTED 1
#else
#define EXO_PUNCH_SUPPORTED 0
#endif

/* ---- memory ------------------------------------------------------------ */
/* Ask the cache for the line at p ahead of a random read (a hint; nothing
 * where the compiler has no prefetch builtin). The one definition of the
 * hot loops' prefetches. */
#if defined(__GNUC__)
#define EXO_PREFETCH(p) __builtin_prefetch(p)
#else
#define EXO_PREFETCH(p) ((void)0)
#endif
/* 4 KiB-aligned malloc for I/O buffers (malloc's alignment on Windows, where
 * nothing needs more); free with free(). */
void *exo_alloc_aligned(size_t n);
/* A malloc'd block (free() frees it) that the system is asked to back with
 * huge pages where it can (2 MiB aligned, MADV_HUGEPAGE on Linux; plain
 * malloc elsewhere). */
void *exo_alloc_huge(size_t n);
/* Ask for huge pages over a mapping (MADV_HUGEPAGE on Linux; else nothing). */
void exo_advise_huge(void *p, size_t n);

/* Large buffers that go back to the system when freed or shrunk: blocks of
 * EXO_BIG_MIN bytes and more are their own memory mappings (mmap on POSIX,
 * VirtualAlloc on Windows; malloc would serve them from its heap once its
 * dynamic mmap threshold has grown, and keep their pages after free, so a
 * buffer shrunk to make room for another structure would not really give its
 * memory back). Smaller blocks come from the C heap. Free and resize only
 * with these calls, with the size they were allocated with. */
#define EXO_BIG_MIN ((size_t)1 << 20)
void *exo_big_alloc(size_t n);
void *exo_big_realloc(void *p, size_t old_n, size_t new_n); /* NULL: p unchanged */
void exo_big_free(void *p, size_t n);
/* exo_big_alloc aligned to `align` (a power of two multiple of the page
 * size); zeroed when it is a mapping (n >= EXO_BIG_MIN). */
void *exo_big_alloc_aligned(size_t n, size_t align);

/* ---- system queries ---------------------------------------------------- */
/* Default base for temporary directories, malloc'd (NULL: out of memory):
 * $TMPDIR, else on Windows %TEMP% or %TMP% (read as UTF-16, returned as
 * UTF-8), else "/tmp" (Windows: "."). */
char *exo_default_tempdir(void);
/* Bytes available to this user on the file system holding `path`. */
int exo_disk_free(const char *path, uint64_t *bytes);
uint64_t exo_mem_physical(void);   /* installed RAM in bytes; 0 if unknown */
unsigned exo_cpu_count(void);      /* online processors; >= 1 */
/* Descriptors this process may have open at once; 0 if unbounded. */
uint64_t exo_open_files_max(void);
uint64_t exo_peak_rss(void);       /* peak resident set in bytes; 0 if unknown */
uint64_t exo_process_id(void);
/* Seconds on a monotonic clock (CLOCK_MONOTONIC), for durations only: the
 * stages' timings, progress rates. */
double exo_now_seconds(void);
/* CPU seconds the calling thread has used so far (CLOCK_THREAD_CPUTIME_ID),
 * for the stages' serial parts; 0 where the clock is missing. */
double exo_thread_cpu_seconds(void);
/* CPU seconds all threads of the process have used so far
 * (CLOCK_PROCESS_CPUTIME_ID); 0 where the clock is missing. */
double exo_process_cpu_seconds(void);
/* Windows: replace argv by the UTF-8 form of the wide command line (the
 * narrow one is in the ANSI code page), so paths reach exo_open intact.
 * Elsewhere nothing. The new vector lives until the process exits. */
void exo_args_utf8(int *argc, char ***argv);

#endif
