#!/usr/bin/env bash
# Prints sizeof() of the kernel structures the shipped workloads' working sets
# are made of (docs/workloads.md, "Working sets"), as a kernel's headers lay
# them out with that kernel's configuration.
#
# Usage: scripts/kernel-struct-sizes.sh [KERNEL_BUILD_DIR]
#   KERNEL_BUILD_DIR: a tree that builds out-of-tree modules, default
#   /lib/modules/$(uname -r)/build. On Debian: apt-get install linux-headers-amd64
#   (or -arm64), then pass /usr/src/linux-headers-<version>-amd64.
# It compiles one object file (nothing is loaded) and reads the sizes out of it.
set -euo pipefail
kdir=${1:-/lib/modules/$(uname -r)/build}
if [ ! -f "$kdir/Makefile" ]; then
  echo "kernel-struct-sizes: no kernel build tree at $kdir (install the linux-headers package)" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/sz.c" <<'EOF'
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/pipe_fs_i.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/mm_types.h>
#include <linux/fdtable.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <net/af_unix.h>
#define S(name, val) asm volatile("\n.ascii \"@@SZ " #name " %c0\\n\"" :: "i"((unsigned long)(val)))
void sz_dump(void);
void sz_dump(void)
{
	S(THREAD_SIZE, THREAD_SIZE);
	S(PAGE_SIZE, PAGE_SIZE);
	S(L1_CACHE_BYTES, L1_CACHE_BYTES);
	S(PIPE_DEF_BUFFERS, PIPE_DEF_BUFFERS);
	S(struct_sk_buff, sizeof(struct sk_buff));
	S(struct_sk_buff_fclones, sizeof(struct sk_buff_fclones));
	S(struct_skb_shared_info, sizeof(struct skb_shared_info));
	S(MAX_TCP_HEADER, MAX_TCP_HEADER);
	S(struct_tcp_sock, sizeof(struct tcp_sock));
	S(struct_udp_sock, sizeof(struct udp_sock));
	S(struct_unix_sock, sizeof(struct unix_sock));
	S(struct_request_sock, sizeof(struct request_sock));
	S(struct_socket, sizeof(struct socket));
	S(struct_file, sizeof(struct file));
	S(struct_inode, sizeof(struct inode));
	S(struct_pipe_inode_info, sizeof(struct pipe_inode_info));
	S(struct_pipe_buffer, sizeof(struct pipe_buffer));
	S(struct_task_struct, sizeof(struct task_struct));
	S(struct_sighand_struct, sizeof(struct sighand_struct));
	S(struct_signal_struct, sizeof(struct signal_struct));
	S(struct_files_struct, sizeof(struct files_struct));
	S(struct_mm_struct, sizeof(struct mm_struct));
	S(struct_vm_area_struct, sizeof(struct vm_area_struct));
}
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := sz.o' >"$tmp/Makefile"
if ! make -s -C "$kdir" M="$tmp" sz.o >"$tmp/log" 2>&1; then
  cat "$tmp/log" >&2
  exit 1
fi
echo "# $(basename "$(readlink -f "$kdir")")"
strings "$tmp/sz.o" | sed -n 's/^@@SZ //p' | awk '{ printf "%-26s %6d\n", $1, $2 }'
