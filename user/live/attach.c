// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* memfd_create() */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "live/attach.h"
#include "live/sysinfo.h"
#include "auditskip.skel.h"

/* Attaches and hands the link to the skeleton, whose destroy detaches it. */
static int attach_prog(struct auditskip_bpf *s, struct bpf_program *prog)
{
	struct bpf_link *link = bpf_program__attach(prog);

	if (!link)
		return -errno;
	for (int i = 0; i < s->skeleton->prog_cnt; i++)
		if (*s->skeleton->progs[i].prog == prog)
			*s->skeleton->progs[i].link = link;
	return 0;
}

static bool has_func(const struct btf *btf, const char *name)
{
	return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) > 0;
}

/* The kernel knows BPF helper `name` (BPF_FUNC_<name> in its enum bpf_func_id). */
static bool has_helper(const struct btf *btf, const char *name)
{
	int id = btf__find_by_name_kind(btf, "bpf_func_id", BTF_KIND_ENUM);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	char want[64];

	if (!t)
		return false;
	snprintf(want, sizeof(want), "BPF_FUNC_%s", name);
	for (int i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off), want))
			return true;
	return false;
}

/* Whether the machine loads tracing programs: not asked yet, or its answer. */
enum tracing {
	TRACING_UNKNOWN,
	TRACING_LOADS,
	TRACING_REFUSED
};

/*
 * The hot path's programs test no option: a run that sets one gets their
 * `detailed` twins, which do (bpf/auditskip.bpf.c says why).
 */
static bool wants_detailed(const struct attach_req *req)
{
	return req->filter_tasks || req->per_comm || req->timing || req->profile;
}

/* The hook of a fentry, fexit or raw tracepoint program: its section name's tail. */
static const char *prog_hook(const struct bpf_program *prog)
{
	const char *slash = strchr(bpf_program__section_name(prog), '/');

	return slash ? slash + 1 : "";
}

/* mirror_* programs keep the mirror; their target is their hook. */
static const char *mirror_target(const struct bpf_program *prog)
{
	return strncmp(bpf_program__name(prog), "mirror_", 7) ? NULL : prog_hook(prog);
}

/*
 * A mode's programs (modes[].progs), the ones that must be attached first
 * leading: a NAME_detailed twin when options need one, and none of those
 * "?NAME" whose hook this kernel lacks.
 */
static int mode_progs(struct auditskip_bpf *s, enum attach_mode mode, bool detailed,
		      struct bpf_program **progs)
{
	int n = 0;

	for (int i = 0; i < MAX_MODE_PROGS && modes[mode].progs[i]; i++) {
		const char *name = modes[mode].progs[i];
		struct bpf_program *prog = NULL;
		char twin[64];

		name += *name == '?';
		snprintf(twin, sizeof(twin), "%s_detailed", name);
		if (detailed)
			prog = bpf_object__find_program_by_name(s->obj, twin);
		if (!prog)
			prog = bpf_object__find_program_by_name(s->obj, name);
		if (prog)
			progs[n++] = prog;
	}
	return n;
}

/* A "?NAME" program of the mode whose hook this kernel lacks: left out. */
static bool optional_and_absent(enum attach_mode mode, const struct bpf_program *prog,
				const struct btf *btf)
{
	for (int i = 0; i < MAX_MODE_PROGS && modes[mode].progs[i]; i++)
		if (modes[mode].progs[i][0] == '?' &&
		    !strcmp(modes[mode].progs[i] + 1, bpf_program__name(prog)))
			return !has_func(btf, prog_hook(prog));
	return false;
}

static bool is_mode_prog(struct auditskip_bpf *s, enum attach_mode mode, bool detailed,
			 const struct bpf_program *prog)
{
	struct bpf_program *progs[MAX_MODE_PROGS];
	int n = mode_progs(s, mode, detailed, progs);

	for (int i = 0; i < n; i++)
		if (progs[i] == prog)
			return true;
	return false;
}

/* The mode's programs, the mirror's where the kernel has their targets, and the helpers'. */
static void choose_programs(struct auditskip_bpf *s, const struct attach_req *req,
			    const struct btf *btf, enum attach_mode mode, bool kernel_mirror)
{
	bool trampoline = modes[mode].target != NULL;
	struct bpf_program *prog;

	bpf_object__for_each_program (prog, s->obj) {
		const char *target = mirror_target(prog);

		bpf_program__set_autoload(
			prog, (is_mode_prog(s, mode, wants_detailed(req), prog) &&
			       !optional_and_absent(mode, prog, btf)) ||
				      (target && kernel_mirror && has_func(btf, target)));
	}
	/*
	 * Premarking a new rule's bits needs no list address: where the loader
	 * keeps the mirror, it keeps a rule from matching before its listing.
	 */
	if (trampoline && has_func(btf, "audit_rule_change"))
		bpf_program__set_autoload(s->progs.mirror_premark_add, true);
	bpf_program__set_autoload(s->progs.read_n_rules,
				  trampoline && !kernel_mirror && req->n_rules_addr &&
					  has_func(btf, "audit_list_rules_send"));
	/*
	 * audit_n_rules before and after each listing: whether the list moved
	 * meanwhile, and what the mirror the loader keeps was listed at.
	 */
	bpf_program__set_autoload(s->progs.read_n_rules_now, req->n_rules_addr);
	bpf_program__set_autoload(s->progs.follow_fork, req->follow_children);
	bpf_program__set_autoload(s->progs.track_exec, req->follow_children);
	bpf_program__set_autoload(s->progs.forget_exit, req->follow_children);
}

static void size_maps(struct auditskip_bpf *s, const struct attach_req *req, enum attach_mode mode)
{
	/* Maps this run never uses shrink to one entry: no memory locked for them. */
	if (!req->filter_tasks)
		bpf_map__set_max_entries(s->maps.tracked, 1);
	if (!req->per_comm)
		bpf_map__set_max_entries(s->maps.comms, 1);
	if (!req->timing)
		bpf_map__set_max_entries(s->maps.walk_hist, 1);
	if (!req->per_rule) {
		bpf_map__set_max_entries(s->maps.rule_matches, 1);
		bpf_map__set_max_entries(s->maps.exit_prios, 1);
	}
	bpf_map__set_autocreate(s->maps.entries, mode_sees(mode, MODE_JUDGES_AT_ENTRY));
}

static void set_options(struct auditskip_bpf *s, const struct attach_req *req)
{
	s->rodata->filter_tasks = req->filter_tasks;
	/* The mirror_* programs that use these load only with kernel_mirror. */
	s->rodata->exit_list_addr = req->exit_list_addr;
	s->rodata->uring_list_addr = req->uring_list_addr;
	s->rodata->n_rules_addr = req->n_rules_addr;
	s->rodata->classes_addr = req->classes_addr;
	s->rodata->corrupt_nr = req->corrupt_nr;
	s->rodata->per_comm = req->per_comm;
	s->rodata->rule_counts = req->per_rule;
	s->rodata->timing = req->timing;
	s->rodata->profile = req->profile;
}

/*
 * Whether this machine loads tracing programs at all: an fentry program
 * that only returns, on a function the modes hook. Where a policy refuses
 * them (EPERM), every trampoline mode would fail to load the same way,
 * after libbpf read the kernel's BTF again for it (a page a read(), each
 * a syscall the exit filter walks: half a second at 10,000 rules).
 */
static bool tracing_refused(const struct btf *btf, enum tracing *t)
{
	const struct bpf_insn just_return[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int id = btf__find_by_name_kind(btf, "__audit_syscall_exit", BTF_KIND_FUNC), fd;
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = id);

	/* Asked once, and only for a mode whose target is there. */
	if (*t != TRACING_UNKNOWN || id <= 0)
		return *t == TRACING_REFUSED;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "auditskip_probe", "GPL", just_return, 2, &opts);
	if (fd >= 0)
		close(fd);
	*t = fd == -EPERM ? TRACING_REFUSED : TRACING_LOADS;
	return *t == TRACING_REFUSED;
}

/* One mode: 0, or a negative errno with `why` filled in. */
static int try_mode(const struct attach_req *req, const struct btf *btf, enum tracing *tracing,
		    const char *btf_copy, enum attach_mode mode, struct attached *out, char *why,
		    size_t why_size)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = btf_copy);
	bool trampoline = modes[mode].target != NULL;
	struct auditskip_bpf *s;
	struct bpf_program *prog;
	int err;

	/*
	 * A profile is taken with no rule loaded: then contexts are dummy and
	 * audit never calls the filter functions these modes hook.
	 */
	if (req->profile && mode_sees(mode, MODE_HOOKS_WALKS_ONLY)) {
		snprintf(
			why, why_size,
			"a profile needs no rule, and with none audit never calls %s (contexts are dummy): use syscall-exit or tracepoint",
			modes[mode].target);
		return -EOPNOTSUPP;
	}
	if (trampoline && !has_func(btf, modes[mode].target)) {
		snprintf(why, why_size, "%s is not in this kernel's BTF (inlined or absent)",
			 modes[mode].target);
		return -ENOENT;
	}
	if (trampoline && tracing_refused(btf, tracing)) {
		snprintf(why, why_size,
			 "this machine refuses tracing programs (fentry, fexit): EPERM at load");
		return -EPERM;
	}
	if (mode_sees(mode, MODE_NEEDS_TASK_STORAGE) &&
	    libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) != 1) {
		snprintf(
			why, why_size,
			"it keeps each task's syscall in BPF task storage, which this kernel lacks (Linux 5.11 and later have it)");
		return -EOPNOTSUPP;
	}
	s = auditskip_bpf__open_opts(&opts);
	if (!s) {
		err = -errno;
		snprintf(why, why_size, "cannot open the BPF object: %s", strerror(-err));
		return err;
	}
	/* The rebuild walks the kernel's list with bpf_loop() (5.17 and later). */
	out->kernel_mirror = trampoline && req->exit_list_addr && has_helper(btf, "loop");
	out->detailed = wants_detailed(req);
	choose_programs(s, req, btf, mode, out->kernel_mirror);
	size_maps(s, req, mode);
	set_options(s, req);

	err = auditskip_bpf__load(s);
	if (err) {
		snprintf(why, why_size, "loading failed: %s", strerror(-err));
		goto fail;
	}
	bpf_object__for_each_program (prog, s->obj) {
		if (!bpf_program__autoload(prog) || is_mode_prog(s, mode, out->detailed, prog) ||
		    prog == s->progs.read_n_rules_now)
			continue;
		err = attach_prog(s, prog);
		if (err) {
			snprintf(why, why_size, "attaching %s failed: %s", bpf_program__name(prog),
				 strerror(-err));
			goto fail;
		}
	}
	out->skel = s;
	out->mode = mode;
	/*
	 * A tracing program's trampoline is given back when its first link
	 * goes, so before 5.13 (f3a95075549e, "bpf: Allow trampoline re-attach
	 * for tracing and lsm programs") it attaches once: 5.10 says ENOENT.
	 */
	out->reattaches = !modes[mode].target || kernel_at_least(5, 13);
	return 0;
fail:
	auditskip_bpf__destroy(s);
	return err;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	(void)fmt;
	(void)args;
	return 0;
}

static int libbpf_verbose(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	return vfprintf(stderr, fmt, args);
}

void attach_libbpf_log(bool verbose)
{
	libbpf_set_print(verbose ? libbpf_verbose : libbpf_quiet);
}

/*
 * The kernel's BTF in a memfd, read once: libbpf would read
 * /sys/kernel/btf/vmlinux again for each mode tried, a page a read(), and
 * each read is a syscall the exit filter walks (10,000 rules deep on a
 * large rule set). Returns the descriptor, or -1 (libbpf then reads it).
 */
static int btf_copy_fd(const struct btf *btf)
{
	__u32 size;
	const void *data = btf__raw_data(btf, &size);
	int fd = data ? memfd_create("vmlinux-btf", MFD_CLOEXEC) : -1;

	if (fd >= 0 && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The running kernel's BTF: mapped where the kernel allows it (6.16 and
 * later), which reads it with no syscall at all; else read as libbpf does.
 */
static struct btf *kernel_btf(void)
{
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);
	struct stat st;
	struct btf *btf = NULL;
	void *data = MAP_FAILED;

	if (fd >= 0 && !fstat(fd, &st) && st.st_size > 0)
		data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data != MAP_FAILED) {
		btf = btf__new(data, st.st_size);
		munmap(data, st.st_size);
	}
	if (fd >= 0)
		close(fd);
	return btf ? btf : btf__load_vmlinux_btf();
}

int attach_prepare(const struct attach_req *req, struct attached *out)
{
	char copy_path[32];
	int copy_fd;
	const char *path = req->btf_path ? req->btf_path : "/sys/kernel/btf/vmlinux";
	char why[256];
	enum tracing tracing = TRACING_UNKNOWN;
	struct btf *btf;
	int err = -ENOENT;

	attach_libbpf_log(req->verbose);
	memset(out, 0, sizeof(*out));
	if (access(path, R_OK)) {
		fprintf(stderr,
			"auditskip: no kernel BTF at %s: use a kernel built with CONFIG_DEBUG_INFO_BTF=y, or point --btf at its BTF\n",
			path);
		return -ENOENT;
	}
	btf = req->btf_path ? btf__parse(path, NULL) : kernel_btf();
	if (!btf) {
		err = -errno;
		fprintf(stderr, "auditskip: cannot read kernel BTF from %s: %s\n", path,
			strerror(-err));
		return err;
	}
	if (btf__find_by_name_kind(btf, "audit_context", BTF_KIND_STRUCT) <= 0) {
		fprintf(stderr,
			"auditskip: this kernel has no syscall auditing (CONFIG_AUDITSYSCALL is off): there is no exit filter to measure\n");
		btf__free(btf);
		return -EOPNOTSUPP;
	}
	copy_fd = req->btf_path ? -1 : btf_copy_fd(btf);
	snprintf(copy_path, sizeof(copy_path), "/proc/self/fd/%d", copy_fd);
	for (int m = 0; m < MODE_COUNT; m++) {
		if (req->mode >= 0 && m != req->mode)
			continue;
		err = try_mode(req, btf, &tracing, copy_fd >= 0 ? copy_path : req->btf_path, m, out,
			       why, sizeof(why));
		if (!err)
			break;
		if (req->mode >= 0)
			fprintf(stderr, "auditskip: mode %s cannot run on this kernel: %s\n",
				modes[m].name, why);
		else if (req->verbose || (err != -ENOENT && err != -EPERM && err != -EOPNOTSUPP))
			/* Not absent, not refused by policy: the verifier said no. Say so. */
			fprintf(stderr, "auditskip: passing over mode %s: %s%s\n", modes[m].name,
				why, req->verbose ? "" : " (run with -v for the verifier's log)");
	}
	btf__free(btf);
	if (copy_fd >= 0)
		close(copy_fd);
	if (err && req->mode < 0)
		fprintf(stderr,
			"auditskip: no attach mode loads on this kernel (last: %s); run with -v for each reason\n",
			why);
	return err;
}

int attach_start_counting(struct attached *at)
{
	struct bpf_program *progs[MAX_MODE_PROGS];
	int n = mode_progs(at->skel, at->mode, at->detailed, progs), err = 0;

	for (int i = 0; i < n && !err; i++) {
		if (!bpf_program__autoload(progs[i]))
			continue;
		err = attach_prog(at->skel, progs[i]);
		if (err)
			fprintf(stderr, "auditskip: attaching %s failed: %s\n",
				bpf_program__name(progs[i]), strerror(-err));
	}
	if (err)
		attach_stop_counting(at);
	else
		at->counting = true;
	return err;
}

/* Start programs first: a walk whose start program ran finds its end program still there. */
void attach_stop_counting(struct attached *at)
{
	struct bpf_program *progs[MAX_MODE_PROGS];
	int n = mode_progs(at->skel, at->mode, at->detailed, progs);

	for (int i = 0; i < n; i++) {
		for (int k = 0; k < at->skel->skeleton->prog_cnt; k++) {
			struct bpf_link **link = at->skel->skeleton->progs[k].link;

			if (*at->skel->skeleton->progs[k].prog != progs[i] || !*link)
				continue;
			bpf_link__destroy(*link);
			*link = NULL;
		}
	}
	at->counting = false;
}

void attach_destroy(struct attached *at)
{
	auditskip_bpf__destroy(at->skel);
	at->skel = NULL;
}
