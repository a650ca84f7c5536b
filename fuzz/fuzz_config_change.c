// SPDX-License-Identifier: GPL-2.0
/*
 * Datagrams from audit's log multicast group: the AUDIT_CONFIG_CHANGE
 * records that tell the loader when to list the rules.
 */
#include <stddef.h>
#include <stdint.h>
#include "live/config_change.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config_changes c = { 0 };

	config_change_datagram(data, size, &c);
	/* The record text alone, as classify sees one. */
	(void)config_change_classify((const char *)data, size);
	return 0;
}
