/* exo_platform.c: the operating-system layer (see exo_platform.h).
 *
 * Three implementations share this file: Windows (_WIN32), Linux, and plain
 * POSIX 2008 (macOS, the BSDs, and Linux built with -DEXO_PORTABLE). The
 * POSIX code is the common base; Linux adds its extensions inside
 * `#ifdef EXO_PLATFORM_LINUX` blocks only. */
#if !defined(_WIN32) && defined(__linux__)
#if defined(EXO_PORTABLE)
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, mkdtemp: POSIX 2008, no GNU calls */
#endif
#elif !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* fallocate, sync_file_range, mremap */
#endif
#endif
#if defined(_WIN32)
#define _CRT_RAND_S /* rand_s: random temp names */
#endif
#include "exo_platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define IO_CHUNK ((size_t)1 << 30) /* largest single transfer */

/* "XXXXXX" at the end of tmpl filled from 64 random bits. */
static void fill_template(char *tmpl, uint64_t r) {
  static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  size_t n = strlen(tmpl);
  for (size_t i = n >= 6 ? n - 6 : 0; i < n; i++) {
    tmpl[i] = abc[r % 62];
    r /= 62;
  }
}

#if defined(_WIN32)
/* ======================================================================
 * Windows
 * ==================================================================== */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <psapi.h>
#include <shellapi.h>

static int errno_of(DWORD e) {
  switch (e) {
  case ERROR_FILE_NOT_FOUND: case ERROR_PATH_NOT_FOUND: case ERROR_INVALID_NAME:
  case ERROR_BAD_NETPATH: case ERROR_INVALID_DRIVE: case ERROR_BAD_PATHNAME:
    return ENOENT;
  case ERROR_ACCESS_DENIED: case ERROR_SHARING_VIOLATION: case ERROR_LOCK_VIOLATION:
  case ERROR_WRITE_PROTECT:
    return EACCES;
  case ERROR_FILE_EXISTS: case ERROR_ALREADY_EXISTS: return EEXIST;
  case ERROR_DISK_FULL: case ERROR_HANDLE_DISK_FULL: return ENOSPC;
  case ERROR_NOT_ENOUGH_MEMORY: case ERROR_OUTOFMEMORY: return ENOMEM;
  case ERROR_TOO_MANY_OPEN_FILES: return EMFILE;
  case ERROR_DIRECTORY: return ENOTDIR;
  case ERROR_DIR_NOT_EMPTY: return ENOTEMPTY;
  case ERROR_INVALID_HANDLE: return EBADF;
  case ERROR_FILENAME_EXCED_RANGE: return ENAMETOOLONG;
  default: return EIO;
  }
}
static int fail_win(void) {
  errno = errno_of(GetLastError());
  return -1;
}

/* malloc'd UTF-16 copy of a UTF-8 string; NULL with errno. */
static wchar_t *wide(const char *s) {
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
  if (n <= 0) {
    errno = EINVAL;
    return NULL;
  }
  wchar_t *w = malloc((size_t)n * sizeof *w);
  if (!w) {
    errno = ENOMEM;
    return NULL;
  }
  MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
  return w;
}

static char *narrow(const wchar_t *w) {
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  if (n <= 0) return NULL;
  char *s = malloc((size_t)n);
  if (s) WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
  return s;
}

static HANDLE handle_of(int fd) {
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  if (h == INVALID_HANDLE_VALUE) errno = EBADF;
  return h;
}

int exo_open(const char *path, int how) {
  if (how == EXO_OPEN_INPUT) how = EXO_OPEN_READ; /* no FIFOs to wait on */
  if (how == EXO_OPEN_READ && strcmp(path, "/dev/stdin") == 0) {
    _setmode(0, _O_BINARY);
    return _dup(0);
  }
  wchar_t *w = wide(path);
  if (!w) return -1;
  DWORD access = GENERIC_READ, disp = OPEN_EXISTING, flags = FILE_ATTRIBUTE_NORMAL;
  int crt = _O_RDONLY;
  switch (how) {
  case EXO_OPEN_RDWR: access = GENERIC_READ | GENERIC_WRITE; crt = _O_RDWR; break;
  case EXO_OPEN_CREATE: access = GENERIC_WRITE; disp = CREATE_ALWAYS; crt = _O_WRONLY; break;
  case EXO_OPEN_EXCL: access = GENERIC_WRITE; disp = CREATE_NEW; crt = _O_WRONLY; break;
  case EXO_OPEN_STREAM: access = GENERIC_WRITE; crt = _O_WRONLY; break;
  case EXO_OPEN_APPEND: access = FILE_APPEND_DATA; crt = _O_WRONLY | _O_APPEND; break;
  default: flags |= FILE_FLAG_BACKUP_SEMANTICS; break; /* lets a directory open, to be told apart */
  }
  /* not inheritable (NULL security attributes); others may read, write and
   * delete it meanwhile, as on POSIX */
  HANDLE h = CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, disp, flags, NULL);
  free(w);
  if (h == INVALID_HANDLE_VALUE) return fail_win();
  int fd = _open_osfhandle((intptr_t)h, crt | _O_BINARY);
  if (fd < 0) {
    CloseHandle(h);
    errno = EMFILE;
  }
  return fd;
}

int exo_close(int fd) { return _close(fd); }

int64_t exo_read(int fd, void *buf, size_t n) {
  HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) return -1;
  DWORD got = 0;
  if (!ReadFile(h, buf, (DWORD)(n > IO_CHUNK ? IO_CHUNK : n), &got, NULL)) {
    DWORD e = GetLastError();
    if (e == ERROR_BROKEN_PIPE || e == ERROR_HANDLE_EOF) return 0; /* writer gone: end */
    errno = errno_of(e);
    return -1;
  }
  return (int64_t)got;
}

int64_t exo_read_wait(int fd, void *buf, size_t n, int timeout_ms) {
  (void)timeout_ms; /* no poll() for pipes here: a plain blocking read */
  return exo_read(fd, buf, n);
}

int64_t exo_pread(int fd, void *buf, size_t n, uint64_t off) {
  HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) return -1;
  OVERLAPPED ov;
  memset(&ov, 0, sizeof ov);
  ov.Offset = (DWORD)off;
  ov.OffsetHigh = (DWORD)(off >> 32);
  DWORD got = 0;
  if (!ReadFile(h, buf, (DWORD)(n > IO_CHUNK ? IO_CHUNK : n), &got, &ov)) {
    DWORD e = GetLastError();
    if (e == ERROR_HANDLE_EOF) return 0;
    errno = errno_of(e);
    return -1;
  }
  return (int64_t)got;
}

int64_t exo_pwrite(int fd, const void *buf, size_t n, uint64_t off) {
  HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) return -1;
  OVERLAPPED ov;
  memset(&ov, 0, sizeof ov);
  ov.Offset = (DWORD)off;
  ov.OffsetHigh = (DWORD)(off >> 32);
  DWORD put = 0;
  if (!WriteFile(h, buf, (DWORD)(n > IO_CHUNK ? IO_CHUNK : n), &put, &ov)) return fail_win();
  return (int64_t)put;
}

int exo_write_stdout(const void *buf, size_t n) {
  _setmode(1, _O_BINARY); /* no CR before LF */
  const char *p = buf;
  while (n > 0) {
    int k = _write(1, p, (unsigned)(n > IO_CHUNK ? IO_CHUNK : n));
    if (k < 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

int exo_write_all(int fd, const void *buf, size_t n) {
  HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) return -1;
  const char *p = buf;
  while (n > 0) {
    DWORD put = 0;
    if (!WriteFile(h, p, (DWORD)(n > IO_CHUNK ? IO_CHUNK : n), &put, NULL)) return fail_win();
    p += put;
    n -= put;
  }
  return 0;
}

void exo_sleep_ms(unsigned ms) { Sleep(ms); }

/* No lock primitive is used on Windows: directories stay unmarked and are
 * never cleaned (exo_platform.h). */
int exo_tempdir_lock(const char *dir) {
  (void)dir;
  errno = ENOSYS;
  return -1;
}
void exo_tempdir_unlock(int fd) { (void)fd; }
int exo_clean_stale_tempdirs(const char *base) {
  (void)base;
  return 0;
}

int exo_lock_file(int fd) {
  (void)fd;
  return -1;
}

int exo_clean_stale_temps(const char *prefix, unsigned min_age_s) {
  (void)prefix;
  (void)min_age_s;
  return 0;
}

int exo_fd_stat(int fd, uint64_t *size, int *kind) {
  HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) return -1;
  *size = 0;
  *kind = EXO_FILE_OTHER;
  if (GetFileType(h) != FILE_TYPE_DISK) return 0;
  BY_HANDLE_FILE_INFORMATION fi;
  if (!GetFileInformationByHandle(h, &fi)) return fail_win();
  if (fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
    *kind = EXO_FILE_DIR;
    return 0;
  }
  *kind = EXO_FILE_REGULAR;
  *size = ((uint64_t)fi.nFileSizeHigh << 32) | fi.nFileSizeLow;
  return 0;
}

int exo_path_stat(const char *path, uint64_t *size, int *kind) {
  wchar_t *w = wide(path);
  if (!w) return -1;
  WIN32_FILE_ATTRIBUTE_DATA a;
  BOOL ok = GetFileAttributesExW(w, GetFileExInfoStandard, &a);
  free(w);
  if (!ok) return fail_win();
  *kind = (a.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ? EXO_FILE_DIR : EXO_FILE_REGULAR;
  *size = *kind == EXO_FILE_DIR ? 0 : ((uint64_t)a.nFileSizeHigh << 32) | a.nFileSizeLow;
  return 0;
}

int exo_path_identity(const char *path, uint64_t id[2], int *kind) {
  wchar_t *w = wide(path);
  if (!w) return -1;
  /* BACKUP_SEMANTICS opens directories too; no access right is needed to
   * read the file's index */
  HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  free(w);
  if (h == INVALID_HANDLE_VALUE) return fail_win();
  BY_HANDLE_FILE_INFORMATION fi;
  BOOL ok = GetFileInformationByHandle(h, &fi);
  CloseHandle(h);
  if (!ok) return fail_win();
  id[0] = fi.dwVolumeSerialNumber;
  id[1] = ((uint64_t)fi.nFileIndexHigh << 32) | fi.nFileIndexLow;
  *kind = (fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ? EXO_FILE_DIR : EXO_FILE_REGULAR;
  return 0;
}

int exo_path_is_fd_link(const char *path) {
  (void)path; /* no /proc, no links to descriptors */
  return 0;
}

char *exo_realpath(const char *path) {
  wchar_t *w = wide(path);
  if (!w) return NULL;
  HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  free(w);
  if (h == INVALID_HANDLE_VALUE) {
    fail_win();
    return NULL;
  }
  wchar_t buf[32768];
  DWORD n = GetFinalPathNameByHandleW(h, buf, 32768, FILE_NAME_NORMALIZED);
  CloseHandle(h);
  if (n == 0 || n >= 32768) {
    fail_win();
    return NULL;
  }
  return narrow(buf);
}

int exo_set_size(int fd, uint64_t size) {
  if (size > (uint64_t)INT64_MAX) {
    errno = EINVAL;
    return -1;
  }
  errno_t e = _chsize_s(fd, (__int64)size);
  if (e == 0) return 0;
  errno = e;
  return -1;
}

int exo_remove(const char *path) {
  wchar_t *w = wide(path);
  if (!w) return -1;
  BOOL ok = DeleteFileW(w);
  free(w);
  return ok ? 0 : fail_win();
}

int exo_rename_replace(const char *from, const char *to) {
  wchar_t *a = wide(from), *b = a ? wide(to) : NULL;
  BOOL ok = a && b && MoveFileExW(a, b, MOVEFILE_REPLACE_EXISTING);
  int e = (a && b) ? errno_of(GetLastError()) : errno;
  free(a);
  free(b);
  if (ok) return 0;
  errno = e;
  return -1;
}

static uint64_t random64(void) {
  unsigned a = 0, b = 0;
  if (rand_s(&a) != 0 || rand_s(&b) != 0) /* cannot fail on Windows XP and later */
    a = (unsigned)GetTickCount(), b = (unsigned)GetCurrentProcessId();
  return ((uint64_t)a << 32) ^ b;
}

int exo_make_dir(const char *path) {
  wchar_t *w = wide(path);
  if (!w) return -1;
  BOOL ok = CreateDirectoryW(w, NULL);
  DWORD e = GetLastError();
  free(w);
  if (ok) return 0;
  errno = e == ERROR_ALREADY_EXISTS ? EEXIST : errno_of(e);
  return -1;
}

int exo_make_tempdir(char *tmpl) {
  for (int tries = 0; tries < 100; tries++) {
    fill_template(tmpl, random64());
    wchar_t *w = wide(tmpl);
    if (!w) return -1;
    BOOL ok = CreateDirectoryW(w, NULL);
    DWORD e = GetLastError();
    free(w);
    if (ok) return 0;
    if (e != ERROR_ALREADY_EXISTS) {
      errno = errno_of(e);
      return -1;
    }
  }
  errno = EEXIST;
  return -1;
}

int exo_make_tempfile(char *tmpl) {
  for (int tries = 0; tries < 100; tries++) {
    fill_template(tmpl, random64());
    int fd = exo_open(tmpl, EXO_OPEN_EXCL);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

int exo_dir_is_empty(const char *dir) {
  size_t n = strlen(dir);
  char *pat = malloc(n + 3);
  if (!pat) return -1;
  memcpy(pat, dir, n);
  memcpy(pat + n, "\\*", 3);
  wchar_t *w = wide(pat);
  free(pat);
  if (!w) return -1;
  WIN32_FIND_DATAW fd;
  HANDLE h = FindFirstFileW(w, &fd);
  free(w);
  if (h == INVALID_HANDLE_VALUE) {
    errno = ENOENT;
    return -1;
  }
  int empty = 1;
  do {
    if (wcscmp(fd.cFileName, L".") && wcscmp(fd.cFileName, L"..")) empty = 0;
  } while (empty && FindNextFileW(h, &fd));
  FindClose(h);
  return empty;
}

int exo_remove_dir(const char *dir) {
  size_t n = strlen(dir);
  char *pat = malloc(n + 3);
  if (!pat) return -1;
  memcpy(pat, dir, n);
  memcpy(pat + n, "\\*", 3);
  wchar_t *w = wide(pat);
  free(pat);
  if (w) {
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(w, &fd);
    size_t wn = wcslen(w) - 1; /* keep "dir\" */
    if (h != INVALID_HANDLE_VALUE) {
      do {
        if (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) continue;
        size_t fn = wcslen(fd.cFileName);
        wchar_t *p = malloc((wn + fn + 1) * sizeof *p);
        if (!p) continue;
        memcpy(p, w, wn * sizeof *p);
        memcpy(p + wn, fd.cFileName, (fn + 1) * sizeof *p);
        DeleteFileW(p);
        free(p);
      } while (FindNextFileW(h, &fd));
      FindClose(h);
    }
    free(w);
  }
  wchar_t *d = wide(dir);
  if (!d) return -1;
  BOOL ok = RemoveDirectoryW(d);
  DWORD e = GetLastError();
  free(d);
  return ok || e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? 0 : -1;
}

/* Windows has no call for these hints that is worth a syscall per buffer:
 * the cache manager reads ahead on its own and writes behind lazily. */
void exo_hint_sequential(int fd, uint64_t off, uint64_t len) { (void)fd, (void)off, (void)len; }
void exo_hint_willneed(int fd, uint64_t off, uint64_t len) { (void)fd, (void)off, (void)len; }
size_t exo_pread_cached(int fd, void *buf, size_t n, uint64_t off) {
  (void)fd, (void)buf, (void)n, (void)off;
  return 0;
}
void exo_writeback_start(int fd, uint64_t off, uint64_t len) { (void)fd, (void)off, (void)len; }
void exo_writeback_wait(int fd, uint64_t off, uint64_t len) { (void)fd, (void)off, (void)len; }
void exo_punch_hole(int fd, uint64_t upto) { (void)fd, (void)upto; }
void exo_punch_range(int fd, uint64_t off, uint64_t len) { (void)fd, (void)off, (void)len; }

void *exo_alloc_aligned(size_t n) { return malloc(n ? n : 1); }
void *exo_alloc_huge(size_t n) { return malloc(n ? n : 1); }
void exo_advise_huge(void *p, size_t n) { (void)p, (void)n; }

/* Below EXO_BIG_MIN: _aligned_malloc (so the aligned variant can be freed
 * like the others); from EXO_BIG_MIN: VirtualAlloc regions, released whole
 * from their allocation base. */
void *exo_big_alloc(size_t n) {
  if (n < EXO_BIG_MIN) return _aligned_malloc(n ? n : 1, 16);
  return VirtualAlloc(NULL, n, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void *exo_big_alloc_aligned(size_t n, size_t align) {
  if (n < EXO_BIG_MIN) return _aligned_malloc(n ? n : 1, align);
  if (n > SIZE_MAX - align) return NULL;
  /* reserve n + align of address space, commit the aligned n inside it */
  uint8_t *p = VirtualAlloc(NULL, n + align, MEM_RESERVE, PAGE_READWRITE);
  if (!p) return NULL;
  uint8_t *q = (uint8_t *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
  if (!VirtualAlloc(q, n, MEM_COMMIT, PAGE_READWRITE)) {
    VirtualFree(p, 0, MEM_RELEASE);
    return NULL;
  }
  return q;
}

void exo_big_free(void *p, size_t n) {
  if (!p) return;
  if (n < EXO_BIG_MIN) {
    _aligned_free(p);
    return;
  }
  MEMORY_BASIC_INFORMATION mi;
  if (VirtualQuery(p, &mi, sizeof mi)) VirtualFree(mi.AllocationBase, 0, MEM_RELEASE);
}

void *exo_big_realloc(void *p, size_t old_n, size_t new_n) {
  if (!p) return exo_big_alloc(new_n);
  if (old_n < EXO_BIG_MIN && new_n < EXO_BIG_MIN) return _aligned_realloc(p, new_n ? new_n : 1, 16);
  void *q = exo_big_alloc(new_n);
  if (!q) return NULL;
  memcpy(q, p, old_n < new_n ? old_n : new_n);
  exo_big_free(p, old_n);
  return q;
}

int exo_disk_free(const char *path, uint64_t *bytes) {
  wchar_t *w = wide(path);
  if (!w) return -1;
  ULARGE_INTEGER avail;
  BOOL ok = GetDiskFreeSpaceExW(w, &avail, NULL, NULL);
  free(w);
  if (!ok) return fail_win();
  *bytes = avail.QuadPart;
  return 0;
}

uint64_t exo_mem_physical(void) {
  MEMORYSTATUSEX ms;
  ms.dwLength = sizeof ms;
  return GlobalMemoryStatusEx(&ms) ? ms.ullTotalPhys : 0;
}

unsigned exo_cpu_count(void) {
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  return si.dwNumberOfProcessors ? si.dwNumberOfProcessors : 1;
}

/* the C runtime's table of low-level descriptors holds 2048 (msvcrt) or
 * 8192 (UCRT); every open file here is one of them */
uint64_t exo_open_files_max(void) { return 2048; }

uint64_t exo_peak_rss(void) {
  PROCESS_MEMORY_COUNTERS pmc;
  if (!K32GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof pmc)) return 0;
  return (uint64_t)pmc.PeakWorkingSetSize;
}

uint64_t exo_process_id(void) { return (uint64_t)GetCurrentProcessId(); }

char *exo_default_tempdir(void) {
  static const wchar_t *const vars[] = {L"TMPDIR", L"TEMP", L"TMP"};
  for (int i = 0; i < 3; i++) {
    const wchar_t *d = _wgetenv(vars[i]);
    if (d && *d) return narrow(d);
  }
  return narrow(L".");
}

void exo_args_utf8(int *argc, char ***argv) {
  int n = 0;
  wchar_t **wv = CommandLineToArgvW(GetCommandLineW(), &n);
  if (!wv) return;
  char **v = calloc((size_t)n + 1, sizeof *v);
  for (int i = 0; v && i < n; i++) {
    v[i] = narrow(wv[i]);
    if (!v[i]) { /* keep the narrow arguments */
      for (int j = 0; j < i; j++) free(v[j]);
      free(v);
      v = NULL;
    }
  }
  LocalFree(wv);
  if (!v) return;
  *argc = n;
  *argv = v;
}

#else
/* ======================================================================
 * POSIX (with the Linux extensions under EXO_PLATFORM_LINUX)
 * ==================================================================== */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h> /* flock: Linux, the BSDs, macOS */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif

int exo_open(const char *path, int how) {
  int flags = O_RDONLY;
  switch (how) {
  case EXO_OPEN_RDWR: flags = O_RDWR; break;
  case EXO_OPEN_CREATE: flags = O_WRONLY | O_CREAT | O_TRUNC; break;
  case EXO_OPEN_EXCL: flags = O_WRONLY | O_CREAT | O_EXCL; break;
  case EXO_OPEN_STREAM: flags = O_WRONLY | O_NONBLOCK; break;
  case EXO_OPEN_APPEND: flags = O_WRONLY | O_APPEND; break;
  case EXO_OPEN_INPUT: {
    struct stat st; /* a FIFO: open() would block until a writer comes */
    if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) flags |= O_NONBLOCK;
    break;
  }
  default: break;
  }
  int fd;
  do fd = open(path, flags | O_CLOEXEC, 0666); /* the umask applies */
  while (fd < 0 && errno == EINTR);
  if (fd >= 0 && how == EXO_OPEN_STREAM) { /* writes block as usual */
    int fl = fcntl(fd, F_GETFL);
    if (fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
      int e = errno;
      close(fd);
      errno = e;
      return -1;
    }
  }
  return fd;
}

int exo_close(int fd) { return close(fd); }

int64_t exo_read(int fd, void *buf, size_t n) {
  for (;;) {
    ssize_t k = read(fd, buf, n > IO_CHUNK ? IO_CHUNK : n);
    if (k >= 0 || errno != EINTR) return (int64_t)k;
  }
}

int64_t exo_read_wait(int fd, void *buf, size_t n, int timeout_ms) {
  if (timeout_ms >= 0) {
    struct pollfd pf;
    pf.fd = fd;
    pf.events = POLLIN;
    pf.revents = 0;
    int r = poll(&pf, 1, timeout_ms);
    if (r == 0 || (r < 0 && errno == EINTR)) return EXO_READ_AGAIN;
    if (r < 0) return -1;
    /* readable, at end of file (POLLHUP) or in error: read() tells which */
  }
  ssize_t k = read(fd, buf, n > IO_CHUNK ? IO_CHUNK : n);
  if (k >= 0) return (int64_t)k;
  if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) return EXO_READ_AGAIN;
  return -1;
}

int64_t exo_pread(int fd, void *buf, size_t n, uint64_t off) {
  if (off > (uint64_t)INT64_MAX) {
    errno = EINVAL;
    return -1;
  }
  for (;;) {
    ssize_t k = pread(fd, buf, n > IO_CHUNK ? IO_CHUNK : n, (off_t)off);
    if (k >= 0 || errno != EINTR) return (int64_t)k;
  }
}

int64_t exo_pwrite(int fd, const void *buf, size_t n, uint64_t off) {
  if (off > (uint64_t)INT64_MAX) {
    errno = EINVAL;
    return -1;
  }
  for (;;) {
    ssize_t k = pwrite(fd, buf, n > IO_CHUNK ? IO_CHUNK : n, (off_t)off);
    if (k >= 0 || errno != EINTR) return (int64_t)k;
  }
}

int exo_write_stdout(const void *buf, size_t n) {
  const char *p = buf;
  while (n > 0) {
    ssize_t k = write(STDOUT_FILENO, p, n > IO_CHUNK ? IO_CHUNK : n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

int exo_write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n > 0) {
    ssize_t k = write(fd, p, n > IO_CHUNK ? IO_CHUNK : n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

void exo_sleep_ms(unsigned ms) {
  struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

static void kind_of(const struct stat *st, uint64_t *size, int *kind) {
  *kind = S_ISREG(st->st_mode) ? EXO_FILE_REGULAR : S_ISDIR(st->st_mode) ? EXO_FILE_DIR
                                                                          : EXO_FILE_OTHER;
  *size = *kind == EXO_FILE_REGULAR ? (uint64_t)st->st_size : 0;
}

int exo_fd_stat(int fd, uint64_t *size, int *kind) {
  struct stat st;
  if (fstat(fd, &st) != 0) return -1;
  kind_of(&st, size, kind);
  return 0;
}

int exo_path_stat(const char *path, uint64_t *size, int *kind) {
  struct stat st;
  if (stat(path, &st) != 0) return -1;
  kind_of(&st, size, kind);
  return 0;
}

int exo_path_identity(const char *path, uint64_t id[2], int *kind) {
  struct stat st;
  uint64_t size;
  if (stat(path, &st) != 0) return -1;
  kind_of(&st, &size, kind);
  id[0] = (uint64_t)st.st_dev;
  id[1] = (uint64_t)st.st_ino;
  return 0;
}

char *exo_realpath(const char *path) { return realpath(path, NULL); }

static int under_fd_dirs(const char *p) {
  return strncmp(p, "/proc/", 6) == 0 || strncmp(p, "/dev/fd/", 8) == 0;
}

int exo_path_is_fd_link(const char *path) {
  struct stat st;
  if (!path || lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) return 0;
  if (under_fd_dirs(path)) return 1;
  char cur[4096], target[4096];
  size_t len = strlen(path);
  if (len >= sizeof cur) return 0;
  memcpy(cur, path, len + 1);
  for (int hop = 0; hop < 40; hop++) { /* the kernel's own limit on a chain */
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return 0;
    ssize_t k = readlink(cur, target, sizeof target - 1);
    if (k < 0) return 0;
    target[k] = '\0';
    if (target[0] == '/') {
      memcpy(cur, target, (size_t)k + 1);
    } else { /* relative to the link's directory */
      char *slash = strrchr(cur, '/');
      size_t keep = slash ? (size_t)(slash - cur) + 1 : 0;
      if (keep + (size_t)k >= sizeof cur) return 0;
      memcpy(cur + keep, target, (size_t)k + 1);
    }
    if (under_fd_dirs(cur)) return 1;
  }
  return 0;
}

int exo_set_size(int fd, uint64_t size) {
  if (size > (uint64_t)INT64_MAX) {
    errno = EINVAL;
    return -1;
  }
  return ftruncate(fd, (off_t)size);
}

int exo_remove(const char *path) { return unlink(path); }
int exo_rename_replace(const char *from, const char *to) { return rename(from, to); }

int exo_make_tempdir(char *tmpl) { return mkdtemp(tmpl) ? 0 : -1; }
int exo_make_dir(const char *path) { return mkdir(path, 0777); } /* the umask applies */

/* mkstemp would create the file 0600; an O_EXCL open of our own names gives
 * the mode a plain creat() gives (0666 less the umask) without reading or
 * changing the process umask. Names: clock, process id and the attempt
 * mixed (splitmix64); a clash is retried. */
int exo_make_tempfile(char *tmpl) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  uint64_t x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
               ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)tmpl;
  for (int tries = 0; tries < 100; tries++) {
    x += 0x9e3779b97f4a7c15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    fill_template(tmpl, z ^ (z >> 31));
    int fd = exo_open(tmpl, EXO_OPEN_EXCL);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

int exo_dir_is_empty(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  struct dirent *e;
  int empty = 1;
  while (empty && (e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) empty = 0;
  closedir(d);
  return empty;
}

int exo_remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    size_t n = strlen(dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      size_t k = strlen(e->d_name);
      char *p = malloc(n + k + 2);
      if (!p) continue;
      memcpy(p, dir, n);
      p[n] = '/';
      memcpy(p + n + 1, e->d_name, k + 1);
      unlink(p);
      free(p);
    }
    closedir(d);
  }
  if (rmdir(dir) == 0 || errno == ENOENT) return 0;
  return -1;
}

/* ---- temporary directories of dead runs (see exo_platform.h) ---------- */

#define TEMPLOCK_MAGIC "exolabel temporary directory\n"

/* "host <name>\n" of this machine into buf; 0 or -1. */
static int host_line(char *buf, size_t cap) {
  char h[256];
  if (gethostname(h, sizeof h - 1) != 0) return -1;
  h[sizeof h - 1] = 0;
  int k = snprintf(buf, cap, "host %s\n", h);
  return k > 0 && (size_t)k < cap ? 0 : -1;
}

static char *join2(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p) return NULL;
  memcpy(p, dir, a);
  p[a] = '/';
  memcpy(p + a + 1, name, b + 1);
  return p;
}

int exo_tempdir_lock(const char *dir) {
  char host[300];
  if (host_line(host, sizeof host) != 0) return -1;
  char *path = join2(dir, EXO_TEMPLOCK_NAME);
  if (!path) return -1;
  int fd;
  do fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    free(path);
    return -1;
  }
  /* the lock first, then the text: a marker that reads complete is locked
   * by its owner, or the owner is gone (a cleaner may hold the lock for a
   * moment while it reads an empty marker: wait for it) */
  int r;
  do r = flock(fd, LOCK_EX);
  while (r != 0 && errno == EINTR);
  char text[400];
  int k = snprintf(text, sizeof text, "%spid %llu\n%s", TEMPLOCK_MAGIC,
                   (unsigned long long)getpid(), host);
  if (r != 0 || k <= 0 || (size_t)k >= sizeof text || exo_write_all(fd, text, (size_t)k) != 0) {
    int e = errno;
    close(fd);
    unlink(path); /* unmarked: never cleaned by another run */
    free(path);
    errno = e;
    return -1;
  }
  free(path);
  return fd;
}

void exo_tempdir_unlock(int fd) {
  if (fd >= 0) close(fd);
}

/* "exolabel-" and 6 letters or digits (exo_tempdir_create's names). */
static int stale_name(const char *name) {
  if (strncmp(name, "exolabel-", 9) != 0 || strlen(name) != 15) return 0;
  for (int i = 9; i < 15; i++) {
    char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return 0;
  }
  return 1;
}

/* Remove what `dir` holds, links not followed, nested directories to a
 * depth of 8; `keep` (a name) is left. Nothing on a device other than `dev`
 * (the run directory's) is entered or removed: a filesystem mounted inside
 * stays whole, and so does the mount point. Returns how many entries were
 * left behind (`keep` not counted): on another device, nested too deep, or
 * not removable. */
static uint64_t remove_contents(const char *dir, dev_t dev, const char *keep, int depth) {
  /* the directory opened is the one checked: not a link, on `dev` */
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat dst;
  if (fd < 0) return 1;
  if (fstat(fd, &dst) != 0 || !S_ISDIR(dst.st_mode) || dst.st_dev != dev) {
    close(fd);
    return 1;
  }
  DIR *d = fdopendir(fd);
  if (!d) {
    close(fd);
    return 1;
  }
  uint64_t left = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (keep && !strcmp(e->d_name, keep)) continue;
    char *p = join2(dir, e->d_name);
    struct stat st;
    if (!p || lstat(p, &st) != 0) {
      left++;
    } else if (st.st_dev != dev) {
      left++; /* a mount point, or an entry of another filesystem */
    } else if (S_ISDIR(st.st_mode)) {
      if (depth < 8) left += remove_contents(p, dev, NULL, depth + 1);
      if (depth >= 8 || rmdir(p) != 0) left++;
    } else if (unlink(p) != 0) {
      left++;
    }
    free(p);
  }
  closedir(d);
  return left;
}

/* Whether `dir` (a candidate by name) is a dead run's: see the header. On
 * success the lock is held through *lock_fd. */
static int is_dead_run(const char *dir, const char *host, int *lock_fd) {
  struct stat st, lst;
  if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) return 0;
  char *path = join2(dir, EXO_TEMPLOCK_NAME);
  if (!path) return 0;
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  int dead = 0;
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
      flock(fd, LOCK_EX | LOCK_NB) == 0) {
    char text[512];
    ssize_t k = pread(fd, text, sizeof text - 1, 0);
    if (k > 0) {
      text[k] = 0;
      size_t m = strlen(TEMPLOCK_MAGIC);
      dead = strncmp(text, TEMPLOCK_MAGIC, m) == 0 && strstr(text + m, host) != NULL;
      /* never this process's own (where flock is emulated with per-process
       * fcntl locks, as on NFS, its own lock would not conflict) */
      char own[64];
      snprintf(own, sizeof own, "\npid %llu\n", (unsigned long long)getpid());
      if (strstr(text, own)) dead = 0;
      /* still the marker in that directory (not replaced meanwhile) */
      dead = dead && lstat(path, &lst) == 0 && lst.st_dev == st.st_dev &&
             lst.st_ino == st.st_ino;
    }
  }
  free(path);
  if (dead) {
    *lock_fd = fd;
    return 1;
  }
  if (fd >= 0) close(fd);
  return 0;
}

int exo_lock_file(int fd) { return flock(fd, LOCK_EX | LOCK_NB); }

int exo_clean_stale_temps(const char *prefix, unsigned min_age_s) {
  if (!prefix) return 0;
  const char *slash = strrchr(prefix, '/');
  char *dir = slash ? strdup(prefix) : strdup(".");
  if (!dir) return 0;
  if (slash) dir[slash - prefix + (slash == prefix)] = '\0'; /* "/x" -> "/" */
  const char *base = slash ? slash + 1 : prefix;
  size_t blen = strlen(base);
  DIR *d = opendir(dir);
  if (!d) {
    free(dir);
    return 0;
  }
  int removed = 0;
  time_t now = time(NULL);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, base, blen) != 0 || strlen(e->d_name) != blen + 6) continue;
    int ok = 1;
    for (size_t i = blen; i < blen + 6 && ok; i++) {
      char c = e->d_name[i];
      ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }
    if (!ok) continue;
    char *p = join2(dir, e->d_name);
    if (!p) continue;
    int fd = open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st, lst;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
        now - st.st_mtime >= (time_t)min_age_s && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        lstat(p, &lst) == 0 && lst.st_dev == st.st_dev && lst.st_ino == st.st_ino &&
        unlink(p) == 0)
      removed++;
    if (fd >= 0) close(fd);
    free(p);
  }
  closedir(d);
  free(dir);
  return removed;
}

int exo_clean_stale_tempdirs(const char *base) {
  char host[300];
  host[0] = '\n'; /* the whole line "\nhost <name>\n" must match */
  if (!base || host_line(host + 1, sizeof host - 1) != 0) return 0;
  DIR *d = opendir(base);
  if (!d) return 0;
  int removed = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!stale_name(e->d_name)) continue;
    char *dir = join2(base, e->d_name);
    if (!dir) continue;
    int fd = -1;
    struct stat st;
    if (is_dead_run(dir, host, &fd) && fstat(fd, &st) == 0) {
      /* the marker goes last, and only when nothing else is left: until
       * then the directory stays recognisable (see the header) */
      if (remove_contents(dir, st.st_dev, EXO_TEMPLOCK_NAME, 0) == 0) {
        char *lock = join2(dir, EXO_TEMPLOCK_NAME);
        if (lock) unlink(lock);
        free(lock);
        if (rmdir(dir) == 0) removed++;
      }
    }
    if (fd >= 0) close(fd);
    free(dir);
  }
  closedir(d);
  return removed;
}

void exo_hint_sequential(int fd, uint64_t off, uint64_t len) {
#ifdef EXO_PLATFORM_LINUX
  (void)posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_SEQUENTIAL);
#else
  (void)fd, (void)off, (void)len;
#endif
}

void exo_hint_willneed(int fd, uint64_t off, uint64_t len) {
#ifdef EXO_PLATFORM_LINUX
  (void)posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);
#else
  (void)fd, (void)off, (void)len;
#endif
}

size_t exo_pread_cached(int fd, void *buf, size_t n, uint64_t off) {
  size_t got = 0;
#if defined(EXO_PLATFORM_LINUX) && defined(RWF_NOWAIT)
  const int saved = errno;
  while (got < n) {
    size_t want = n - got < IO_CHUNK ? n - got : IO_CHUNK;
    struct iovec v = {(char *)buf + got, want};
    ssize_t k = preadv2(fd, &v, 1, (off_t)(off + got), RWF_NOWAIT);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break; /* EAGAIN: not cached; EOPNOTSUPP, ENOSYS: cannot tell */
    got += (size_t)k;
  }
  errno = saved;
#else
  (void)fd, (void)buf, (void)n, (void)off;
#endif
  return got;
}

void exo_writeback_start(int fd, uint64_t off, uint64_t len) {
#ifdef EXO_PLATFORM_LINUX
  (void)sync_file_range(fd, (off_t)off, (off_t)len, SYNC_FILE_RANGE_WRITE);
#else
  (void)fd, (void)off, (void)len;
#endif
}

void exo_writeback_wait(int fd, uint64_t off, uint64_t len) {
#ifdef EXO_PLATFORM_LINUX
  (void)sync_file_range(fd, (off_t)off, (off_t)len,
                        SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                            SYNC_FILE_RANGE_WAIT_AFTER);
#else
  (void)fd, (void)off, (void)len;
#endif
}

void exo_punch_hole(int fd, uint64_t upto) { exo_punch_range(fd, 0, upto); }

void exo_punch_range(int fd, uint64_t off, uint64_t len) {
#ifdef EXO_PLATFORM_LINUX
  if (len > 0)
    (void)fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
#else
  (void)fd, (void)off, (void)len;
#endif
}

void *exo_alloc_aligned(size_t n) {
  void *p = NULL;
  return posix_memalign(&p, 4096, n ? n : 1) == 0 ? p : NULL;
}

void exo_advise_huge(void *p, size_t n) {
#if defined(EXO_PLATFORM_LINUX) && defined(MADV_HUGEPAGE)
  if (p) (void)madvise(p, n, MADV_HUGEPAGE);
#else
  (void)p, (void)n;
#endif
}

void *exo_alloc_huge(size_t n) {
#if defined(EXO_PLATFORM_LINUX) && defined(MADV_HUGEPAGE)
  const size_t huge = (size_t)2 << 20;
  if (n >= huge) {
    void *p = NULL;
    size_t rounded = (n + huge - 1) & ~(huge - 1);
    if (posix_memalign(&p, huge, rounded) != 0) return NULL;
    /* memory reused from earlier stages is already mapped with small
     * pages: drop it (the block is ours alone) so it faults in huge */
    (void)madvise(p, rounded, MADV_DONTNEED);
    (void)madvise(p, rounded, MADV_HUGEPAGE);
    return p;
  }
#endif
  return malloc(n ? n : 1);
}

/* Contract (exo_platform.h): mappings from EXO_BIG_MIN bytes, malloc below. */
void *exo_big_alloc(size_t n) {
  if (n < EXO_BIG_MIN) return malloc(n ? n : 1);
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void *exo_big_alloc_aligned(size_t n, size_t align) {
  if (n < EXO_BIG_MIN) {
    void *p = NULL;
    return posix_memalign(&p, align, n ? n : 1) == 0 ? p : NULL;
  }
  if (n > SIZE_MAX - align) return NULL;
  uint8_t *p = mmap(NULL, n + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  uint8_t *q = (uint8_t *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
  if (q > p) munmap(p, (size_t)(q - p)); /* trim to [q, q + n) */
  size_t tail = (size_t)(p + n + align - (q + n));
  if (tail) munmap(q + n, tail);
  return q;
}

void exo_big_free(void *p, size_t n) {
  if (!p) return;
  if (n < EXO_BIG_MIN) free(p);
  else munmap(p, n);
}

void *exo_big_realloc(void *p, size_t old_n, size_t new_n) {
  if (!p) return exo_big_alloc(new_n);
  if (old_n < EXO_BIG_MIN && new_n < EXO_BIG_MIN) return realloc(p, new_n ? new_n : 1);
#if defined(EXO_PLATFORM_LINUX) && defined(MREMAP_MAYMOVE)
  if (old_n >= EXO_BIG_MIN && new_n >= EXO_BIG_MIN) {
    void *q = mremap(p, old_n, new_n, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? NULL : q;
  }
#endif
  void *q = exo_big_alloc(new_n);
  if (!q) return NULL;
  memcpy(q, p, old_n < new_n ? old_n : new_n);
  exo_big_free(p, old_n);
  return q;
}

int exo_disk_free(const char *path, uint64_t *bytes) {
  struct statvfs sv;
  if (statvfs(path, &sv) != 0) return -1;
  *bytes = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
  return 0;
}

uint64_t exo_mem_physical(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

unsigned exo_cpu_count(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (unsigned)n : 1;
}

uint64_t exo_open_files_max(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return 0;
  return (uint64_t)rl.rlim_cur;
}

uint64_t exo_peak_rss(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
#if defined(__APPLE__)
  return (uint64_t)ru.ru_maxrss; /* bytes on macOS */
#else
  return (uint64_t)ru.ru_maxrss * 1024; /* KiB on Linux and the BSDs */
#endif
}

uint64_t exo_process_id(void) { return (uint64_t)getpid(); }

char *exo_default_tempdir(void) {
  const char *d = getenv("TMPDIR");
  if (!d || !*d) d = "/tmp";
  size_t n = strlen(d) + 1;
  char *s = malloc(n);
  if (s) memcpy(s, d, n);
  return s;
}

void exo_args_utf8(int *argc, char ***argv) { (void)argc, (void)argv; }

#endif

double exo_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#if defined(CLOCK_THREAD_CPUTIME_ID) || defined(CLOCK_PROCESS_CPUTIME_ID)
/* CPU seconds of one of the CPU-time clocks; 0 when it cannot be read. */
static double cpu_clock_seconds(clockid_t id) {
  struct timespec ts;
  if (clock_gettime(id, &ts) == 0) return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
  return 0.0;
}
#endif

double exo_thread_cpu_seconds(void) {
#if defined(CLOCK_THREAD_CPUTIME_ID)
  return cpu_clock_seconds(CLOCK_THREAD_CPUTIME_ID);
#else
  return 0.0;
#endif
}

double exo_process_cpu_seconds(void) {
#if defined(CLOCK_PROCESS_CPUTIME_ID)
  return cpu_clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
#else
  return 0.0;
#endif
}
