// faultline's process fork (src/audit/fork-server.ts): the three POSIX calls Node.js does not expose,
// as a Node-API addon (node_api.h, ABI-stable across Node versions). A fork server warms the audit's
// cluster up once, then forks itself once per run: each child is a copy-on-write copy of the warm
// process, JIT-compiled code included, that plays one run, writes its outcome and leaves with
// _exit. Nothing else of the process is touched: the server runs without an event loop (synchronous
// reads and writes only) and with V8's background threads off (--single-threaded), so a child, which
// has only the thread that forked, needs no other thread. POSIX: fork(2), waitpid(2), _exit(2);
// Linux: madvise(2) MADV_DOFORK, prctl(2) PR_SET_PDEATHSIG, so that a child does not outlive its server;
// nanosleep(2) between the polls of waitAnyFor, which lets the server look at a child that has not ended.
#include <errno.h>
#include <node_api.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

static napi_value int_value(napi_env env, int v) {
  napi_value out;
  napi_create_int32(env, v, &out);
  return out;
}

// V8 marks the pages it reserves for the heap MADV_DONTFORK (so that spawning a program does not
// copy their page tables), which would leave the child without its heap: every mapping of the
// process is made inheritable again (MADV_DOFORK) before each fork, since the heap grows between
// forks. A mapping that refuses (the vsyscall page) is left as it is.
static void inherit_all(void) {
#ifdef MADV_DOFORK
  FILE* maps = fopen("/proc/self/maps", "r");
  if (!maps) return;
  unsigned long start, end;
  char line[512];
  while (fgets(line, sizeof line, maps))
    if (sscanf(line, "%lx-%lx", &start, &end) == 2) madvise((void*)start, end - start, MADV_DOFORK);
  fclose(maps);
#endif
}

// fork(): the child's pid in the parent, 0 in the child, -errno on failure.
static napi_value do_fork(napi_env env, napi_callback_info info) {
  inherit_all();
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent) _exit(70);
  }
  return int_value(env, pid < 0 ? -errno : (int)pid);
}

// [pid, code] of a child waitpid(2) returned (code its exit status, or 128 + the signal); [-errno, 0]
// when it failed (no child); [0, 0] when none had ended (WNOHANG).
static napi_value ended(napi_env env, pid_t pid, int status) {
  int err = errno;
  napi_value out;
  napi_create_array_with_length(env, 2, &out);
  int code = pid <= 0 ? 0 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  napi_set_element(env, out, 0, int_value(env, pid < 0 ? -err : (int)pid));
  napi_set_element(env, out, 1, int_value(env, code));
  return out;
}

// The call's first argument as an int, or `fallback` when it has none.
static int int_arg(napi_env env, napi_callback_info info, int fallback) {
  size_t argc = 1;
  napi_value argv[1];
  int v = fallback;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc > 0) napi_get_value_int32(env, argv[0], &v);
  return v;
}

// waitAny(): blocks until a child ends; [pid, code], code the exit status or 128 + the signal;
// [-errno, 0] when there is no child.
static napi_value wait_any(napi_env env, napi_callback_info info) {
  int status = 0;
  pid_t pid;
  do pid = waitpid(-1, &status, 0);
  while (pid < 0 && errno == EINTR);
  return ended(env, pid, status);
}

// waitAnyFor(ms): as waitAny, but [0, 0] when no child has ended within about `ms` milliseconds
// (waitpid(2) with WNOHANG, polled every 2 ms): the server then looks for a child that hangs.
static napi_value wait_any_for(napi_env env, napi_callback_info info) {
  int ms = int_arg(env, info, 1000);
  int status = 0;
  pid_t pid = 0;
  const struct timespec pause = {0, 2000000};
  for (int waited = 0; waited <= ms; waited += 2) {
    do pid = waitpid(-1, &status, WNOHANG);
    while (pid < 0 && errno == EINTR);
    if (pid != 0) break;
    nanosleep(&pause, NULL);
  }
  return ended(env, pid, status);
}

// exit(code): _exit(2), without Node's or the C library's exit handlers, which would close what the
// child shares with its server.
static napi_value do_exit(napi_env env, napi_callback_info info) {
  _exit(int_arg(env, info, 1));
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"fork", NULL, do_fork, NULL, NULL, NULL, napi_default, NULL},
      {"waitAny", NULL, wait_any, NULL, NULL, NULL, napi_default, NULL},
      {"waitAnyFor", NULL, wait_any_for, NULL, NULL, NULL, napi_default, NULL},
      {"exit", NULL, do_exit, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 4, props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
