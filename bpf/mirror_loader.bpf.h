/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the loader keeps the mirror from its own listings (tracepoint mode,
 * 5.10 with no bpf_loop() for a rebuild, a kernel whose lists kallsyms does
 * not show), walks judged while the kernel's rule count had moved from the
 * one the mirror was listed at are counted (mirror_lag_walks); the loader
 * reads audit_n_rules through the programs here around each listing.
 */
#ifndef __MIRROR_LOADER_BPF_H
#define __MIRROR_LOADER_BPF_H

/*
 * audit_n_rules now where mirror_lag_walks is counted (a loader-kept
 * mirror, the rule count's address known), else -1 with no read: a
 * kernel-kept mirror is rebuilt by the change itself.
 */
static __always_inline __s32 n_rules_for_lag(void)
{
	__s32 n;

	if (!n_rules_addr || mirror.source != MIRROR_NETLINK ||
	    bpf_probe_read_kernel(&n, sizeof(n), (void *)n_rules_addr))
		return -1;
	return n;
}

/*
 * A walk judged while the kernel's rule count now, or when its syscall
 * entered (tracepoint mode judges a walk at the task's next entry), is not
 * the one the loader's mirror was listed at.
 */
static __always_inline void note_mirror_lag(__s32 now, __s32 entered)
{
	if (now >= 0 && (now != mirror.kernel_n_rules || entered != mirror.kernel_n_rules))
		__sync_fetch_and_add(&mirror_lag_walks, 1);
}

/*
 * Where the loader keeps the mirror (no bpf_loop() for the rebuild), its
 * listings still read audit_n_rules for the staleness verdict.
 */
SEC("fexit/audit_list_rules_send")
int BPF_PROG(read_n_rules)
{
	__s32 n;

	if (n_rules_addr && !bpf_probe_read_kernel(&n, sizeof(n), (void *)n_rules_addr))
		listed_n_rules = n;
	return 0;
}

/*
 * Run by the loader (BPF_PROG_TEST_RUN), never attached: audit_n_rules
 * before and after a listing tags the mirror it writes (mirror_lag_walks).
 */
SEC("raw_tp")
int read_n_rules_now(void *ctx)
{
	__s32 n;

	n_rules_now = n_rules_addr && !bpf_probe_read_kernel(&n, sizeof(n), (void *)n_rules_addr) ?
			      n :
			      -1;
	return 0;
}

#endif /* __MIRROR_LOADER_BPF_H */
