"""Drop-ins for the reference's modules (hyper_parallel's op records and layer evaluators).

``oprec.compat.op_records`` stands for ``hyper_parallel.auto_parallel._op_records``
and ``oprec.compat.layer_block`` for the evaluators' ``layer_block``: the same
names, signatures and behaviour (docs/python.md), computing through oprec.
"""
