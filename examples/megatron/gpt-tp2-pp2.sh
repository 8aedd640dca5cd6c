#!/bin/bash
# A Megatron-LM launch (its functional test gpt3_mcore_te_tp2_pp2, trimmed):
# `oprec fit --megatron-args examples/megatron/gpt-tp2-pp2.sh --gpus 8`.
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 12 --hidden-size 512 --num-attention-heads 8 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 4 --global-batch-size 32 \
    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 \
    --sequence-parallel --use-distributed-optimizer \
    --tokenizer-type GPT2BPETokenizer --vocab-file "$DATA/vocab.json" --merge-file "$DATA/merges.txt" \
    --lr 0.00015 --train-iters 50 --log-interval 1 \
    --bf16 --transformer-impl transformer_engine
