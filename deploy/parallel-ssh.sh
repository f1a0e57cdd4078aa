#!/usr/bin/env bash
# GNU parallel over ssh: N shards spread over the machines in HOSTS (parallel's --sshloginfile
# format), each machine seeing the library and the output folder at the same paths (NFS, …).
#   deploy/parallel-ssh.sh hosts.txt 12 /shared/library /shared/rendered
set -euo pipefail
hosts=${1:?sshloginfile} shards=${2:?number of shards} library=${3:?library} rendered=${4:?output folder}
seq 1 "$shards" | parallel --sshloginfile "$hosts" --jobs 1 --halt never \
    "adjust batch '$library' --out '$rendered' --max-size 2048 -j 2 --json --shard {}/$shards > '$rendered/.report-{}.jsonl'"
