/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Values auditskip.bpf.c needs from kernel headers that vmlinux.h lacks
 * (macros leave no BTF), and the architecture's audit arches: one place to
 * check them against a new kernel's kernel/audit.h, auditsc.c and uapi.
 */
#ifndef __KERNEL_VALUES_BPF_H
#define __KERNEL_VALUES_BPF_H

/* Values from kernel/audit.h, kernel/auditsc.c and uapi/linux/audit.h. */
#define AUDIT_CTX_SYSCALL 1
#define AUDIT_CTX_URING 2
#define AUDIT_STATE_DISABLED 0
#define AUDIT_ADD_RULE 1011
#define AUDIT_FILTER_EXIT 4
#define AUDIT_FILTER_URING_EXIT 7
#define AUDIT_FILTER_PREPEND 0x10
#define E2BIG 7
#define AUDIT_WATCH 105
#define AUDIT_INODE 102
#define AUDIT_MAX_FIELDS 64
#define BPF_LOCAL_STORAGE_GET_F_CREATE 1
#if defined(__TARGET_ARCH_x86)
#define AUDIT_ARCH_NATIVE 0xc000003e /* AUDIT_ARCH_X86_64 */
#define AUDIT_ARCH_COMPAT 0x40000003 /* AUDIT_ARCH_I386 */
#define TS_COMPAT 0x0002	     /* arch/x86/include/asm/thread_info.h */
#define NR_IO_URING_ENTER 426
#elif defined(__TARGET_ARCH_arm64)
#define AUDIT_ARCH_NATIVE 0xc00000b7 /* AUDIT_ARCH_AARCH64 */
#define AUDIT_ARCH_COMPAT 0x40000028 /* AUDIT_ARCH_ARM */
#define TIF_32BIT 22		     /* arch/arm64/include/asm/thread_info.h */
#define NR_IO_URING_ENTER 426
#else
#error "auditskip needs this architecture's audit arches and io_uring_enter's number"
#endif

#endif /* __KERNEL_VALUES_BPF_H */
