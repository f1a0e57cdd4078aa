#!/usr/bin/env bash
# A Slurm job array: one task per shard, all writing into one shared folder.
#   sbatch --array=1-16 deploy/slurm-array.sh /shared/library /shared/rendered
# SLURM_ARRAY_TASK_ID is 1…16 here (as --array says) and SLURM_ARRAY_TASK_COUNT is 16.
#SBATCH --job-name=adjust
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --output=adjust-%A_%a.log
set -euo pipefail
library=${1:?library folder}
rendered=${2:?output folder}
exec adjust batch "$library" --out "$rendered" --max-size 2048 -j "${SLURM_CPUS_PER_TASK:-2}" --json \
    --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}" > "$rendered/.report-${SLURM_ARRAY_TASK_ID}.jsonl"
