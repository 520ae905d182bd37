// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exit0 - the program every row of entry-vm.sh starts: static, so that its
 * own start costs the same whichever way it was entered.
 */
int main(void)
{
	return 0;
}
