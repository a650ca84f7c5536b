// SPDX-License-Identifier: GPL-2.0
/*
 * Datagrams of an AUDIT_LIST_RULES reply, as the kernel's socket would
 * deliver them: the messages of one datagram, each rule record read into a
 * rule and its masks, as the loader does on every listing.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "audit/auditnl.h"
#include "audit/ruleset.h"
#include "model/whatif_masks.h"

static int read_rule(const struct audit_rule_data *d, size_t len, void *arg)
{
	struct audit_rule r;
	syscall_mask perm;

	(void)arg;
	if (rule_from_data(&r, d, len))
		return 0;
	rule_perm_mask(&r, NULL, perm);
	(void)rule_sets_every_bit(&r);
	rule_free(&r);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct auditnl_rule_walk w = { read_rule, NULL };
	struct nlmsghdr first;
	bool answered = false;

	/* The request the listing awaits: the first message's, so most inputs are read. */
	if (size < sizeof(first))
		return 0;
	memcpy(&first, data, sizeof(first));
	(void)auditnl_handle_datagram(data, size, first.nlmsg_seq, auditnl_rule_reply, &w,
				      &answered);
	return 0;
}
