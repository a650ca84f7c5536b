// SPDX-License-Identifier: GPL-2.0
/*
 * Rules a never rule before them silences (shadowing.h): one pass over the
 * exit list in priority order, keeping per arch and syscall the first
 * never rule that ends the walk.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "audit/syscalls.h"
#include "model/shadowing.h"
#include "model/whatif_masks.h"

#define NO_RULE SIZE_MAX
/* perm= holds AUDIT_PERM_EXEC, _WRITE, _READ and _ATTR; the kernel refuses other bits. */
#define PERM_SETS 16

/* What the pass keeps: per arch, which never rule first ends each syscall's walk. */
struct pass {
	const struct ruleset *rs;
	const struct kernel_classes *kc;
	__u32 elf[NR_ARCHES];
	syscall_mask exists[NR_ARCHES];
	size_t certain[NR_ARCHES][MASK_SYSCALL_BITS]; /* unconditional never rule, or NO_RULE */
	size_t maybe[NR_ARCHES][MASK_SYSCALL_BITS];   /* conditional never rule, or NO_RULE */
	/* perm_syscalls() by perm= value and arch, worked out once each. */
	syscall_mask perm[NR_ARCHES][PERM_SETS];
	bool perm_known[NR_ARCHES][PERM_SETS];
	size_t nevers; /* never rules so far: until one, nothing is shadowed */
};

/*
 * Whether r's arch fields can pass for a syscall of arch `elf`:
 * audit_filter_rules() compares ctx->arch with audit_comparator().
 */
static bool arch_can_pass(const struct audit_rule *r, __u32 elf)
{
	for (unsigned int i = 0; i < r->field_count; i++) {
		const struct rule_field *f = &r->fields[i];

		if (f->type != AUDIT_ARCH)
			continue;
		if ((f->op == AUDIT_EQUAL && f->value != elf) ||
		    (f->op == AUDIT_NOT_EQUAL && f->value == elf))
			return false;
	}
	return true;
}

/*
 * A never rule on the exit list that passes for every syscall of its mask
 * on arch `elf`: its fields are arch= or arch!= fields that pass there
 * (each is decided by the arch alone) and keys, which audit_filter_rules()
 * ignores for filtering.
 */
static bool never_always_passes(const struct audit_rule *r, __u32 elf)
{
	if (r->action != AUDIT_NEVER || !rule_on_exit_list(r))
		return false;
	for (unsigned int i = 0; i < r->field_count; i++) {
		const struct rule_field *f = &r->fields[i];

		if (f->type == AUDIT_FILTERKEY)
			continue;
		if (f->type != AUDIT_ARCH || (f->op != AUDIT_EQUAL && f->op != AUDIT_NOT_EQUAL))
			return false;
	}
	return arch_can_pass(r, elf);
}

static const __u32 *perm_classes(struct pass *p, unsigned int perm, int a)
{
	perm &= PERM_SETS - 1;
	if (!p->perm_known[a][perm]) {
		perm_syscalls(perm, audit_elf_to_machine(p->elf[a]), a == ARCH_COMPAT, p->kc,
			      p->perm[a][perm]);
		p->perm_known[a][perm] = true;
	}
	return p->perm[a][perm];
}

/*
 * The syscalls of arch slot `a` rule `r` could match, into m: its mask,
 * where its arch fields pass, narrowed by perm= to the syscalls
 * audit_match_perm() can accept. Returns how many.
 */
static unsigned int can_match(struct pass *p, const struct audit_rule *r, int a, syscall_mask m)
{
	memset(m, 0, sizeof(syscall_mask));
	if (!p->elf[a] || !arch_can_pass(r, p->elf[a]))
		return 0;
	memcpy(m, r->mask, sizeof(syscall_mask));
	mask_and(m, p->exists[a]);
	if (r->perm)
		mask_and(m, perm_classes(p, r->perm, a));
	return mask_count(m);
}

/* A never rule: the syscalls whose walk it is now the first to end, certainly or maybe. */
static void note_never(struct pass *p, size_t i)
{
	const struct audit_rule *r = &p->rs->rules[i];
	syscall_mask m;

	for (int a = 0; a < NR_ARCHES; a++) {
		size_t *first = never_always_passes(r, p->elf[a]) ? p->certain[a] : p->maybe[a];

		if (!can_match(p, r, a, m))
			continue;
		for (unsigned int w = 0; w < MASK_WORDS; w++)
			for (__u32 bits = m[w]; bits; bits &= bits - 1) {
				unsigned int nr = w * 32 + __builtin_ctz(bits);

				if (first[nr] == NO_RULE)
					first[nr] = i;
			}
	}
}

/* Adds syscall nr to the share of never rule `never` in sa. 0 or -ENOMEM. */
static int add_by(struct shadow_arch *sa, size_t never, unsigned int nr)
{
	struct shadow_by *by = NULL, *grown;

	for (size_t k = 0; k < sa->nby && !by; k++)
		if (sa->by[k].never == never)
			by = &sa->by[k];
	if (!by) {
		grown = realloc(sa->by, (sa->nby + 1) * sizeof(*sa->by));
		if (!grown)
			return -ENOMEM;
		sa->by = grown;
		by = &sa->by[sa->nby++];
		memset(by, 0, sizeof(*by));
		by->never = never;
	}
	mask_set(by->syscalls, nr);
	by->count++;
	mask_set(sa->syscalls, nr);
	sa->count++;
	return 0;
}

static int by_list_order(const void *a, const void *b)
{
	size_t x = ((const struct shadow_by *)a)->never, y = ((const struct shadow_by *)b)->never;

	return x < y ? -1 : x > y;
}

/*
 * Rule i on arch slot a: of the syscalls it could match, those whose walk
 * an unconditional never rule before it ends into `sure`, and of the rest
 * those a conditional one may end into `maybe`. Only the set bits are
 * visited: most rules name a few syscalls. 0 or -ENOMEM.
 */
static int shadow_on_arch(struct pass *p, size_t i, int a, struct shadow_arch *sure,
			  struct shadow_arch *maybe)
{
	syscall_mask m;
	int err = 0;

	sure->can_match = maybe->can_match = can_match(p, &p->rs->rules[i], a, m);
	for (unsigned int w = 0; w < MASK_WORDS && !err; w++) {
		for (__u32 bits = m[w]; bits && !err; bits &= bits - 1) {
			unsigned int nr = w * 32 + __builtin_ctz(bits);

			if (p->certain[a][nr] != NO_RULE)
				err = add_by(sure, p->certain[a][nr], nr);
			else if (p->maybe[a][nr] != NO_RULE)
				err = add_by(maybe, p->maybe[a][nr], nr);
		}
	}
	if (sure->nby > 1)
		qsort(sure->by, sure->nby, sizeof(*sure->by), by_list_order);
	if (maybe->nby > 1)
		qsort(maybe->by, maybe->nby, sizeof(*maybe->by), by_list_order);
	return err;
}

static void free_entry(struct shadowed_rule *e)
{
	for (int a = 0; a < NR_ARCHES; a++)
		free(e->arch[a].by);
}

/* Appends e to `list` if some of its syscalls are shadowed, else frees it. 0 or -ENOMEM. */
static int keep_entry(struct shadowed_rule *e, struct shadowed_rule **list, size_t *n)
{
	struct shadowed_rule *grown;
	unsigned int count = 0;

	for (int a = 0; a < NR_ARCHES; a++)
		count += e->arch[a].count;
	if (!count) {
		free_entry(e);
		return 0;
	}
	/* Grown by doubling: a never rule early in a large set shadows thousands. */
	if (!(*n & (*n - 1))) {
		grown = realloc(*list, (*n ? 2 * *n : 1) * sizeof(**list));
		if (!grown) {
			free_entry(e);
			return -ENOMEM;
		}
		*list = grown;
	}
	(*list)[(*n)++] = *e;
	return 0;
}

/* Rule i, an always rule: what never rules before it shadow, and what they may. 0 or -ENOMEM. */
static int note_rule(struct pass *p, size_t i, struct shadowing *s)
{
	struct shadowed_rule sure = { .rule = i }, maybe = { .rule = i };
	unsigned int could = 0, nsure = 0, nmaybe = 0;
	int err = 0;

	for (int a = 0; a < NR_ARCHES && !err; a++) {
		err = shadow_on_arch(p, i, a, &sure.arch[a], &maybe.arch[a]);
		could += sure.arch[a].can_match;
		nsure += sure.arch[a].count;
		nmaybe += maybe.arch[a].count;
	}
	if (err) {
		free_entry(&sure);
		free_entry(&maybe);
		return err;
	}
	sure.wholly = nsure == could;
	/* What is certainly shadowed counts towards a may-be-whole too. */
	maybe.wholly = nsure + nmaybe == could;
	err = keep_entry(&sure, &s->rules, &s->n);
	if (err) {
		free_entry(&maybe);
		return err;
	}
	return keep_entry(&maybe, &s->may, &s->nmay);
}

static struct pass *pass_new(const struct ruleset *rs, const struct kernel_classes *kc)
{
	struct pass *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->rs = rs;
	p->kc = kc;
	whatif_arches(p->elf);
	for (int a = 0; a < NR_ARCHES; a++) {
		/* The numbers the arch has, from the one table every count of syscalls uses. */
		for (unsigned int nr = 0; p->elf[a] && nr < MASK_SYSCALL_BITS; nr++)
			if (syscall_table_name(nr, audit_elf_to_machine(p->elf[a])))
				mask_set(p->exists[a], nr);
		for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++)
			p->certain[a][nr] = p->maybe[a][nr] = NO_RULE;
	}
	return p;
}

int shadowing_find(const struct ruleset *rs, const struct kernel_classes *kc, struct shadowing *s)
{
	struct pass *p;
	int err = 0;

	memset(s, 0, sizeof(*s));
	whatif_arches(s->arch_elf);
	p = pass_new(rs, kc);
	if (!p)
		return -ENOMEM;
	/* The ruleset lists the exit list in the kernel's order, which is priority order. */
	for (size_t i = 0; i < rs->n && !err; i++) {
		const struct audit_rule *r = &rs->rules[i];

		if (r->list != AUDIT_FILTER_EXIT)
			continue;
		if (r->action == AUDIT_NEVER) {
			note_never(p, i);
			p->nevers++;
			continue;
		}
		if (r->action != AUDIT_ALWAYS)
			continue;
		if (p->nevers)
			err = note_rule(p, i, s);
	}
	free(p);
	if (err)
		shadowing_free(s);
	return err;
}

void shadowing_free(struct shadowing *s)
{
	for (size_t i = 0; i < s->n; i++)
		free_entry(&s->rules[i]);
	for (size_t i = 0; i < s->nmay; i++)
		free_entry(&s->may[i]);
	free(s->rules);
	free(s->may);
	memset(s, 0, sizeof(*s));
}

size_t shadowing_wholly(const struct shadowing *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->rules[i].wholly;
	return n;
}
