// fuse_pairs (register_fuse.cpp): typed pairs of operations made one.
#pragma once

#include "eval/register_code.h"

namespace oprec {

// Each typed Add..Div followed by the typed X or Y op that reads its value
// (or by a typed Add..Div reading its cell on one side), where nothing else
// reads the cell it wrote and no jump lands between them, made one pair
// instruction (ROp::Pair...).
void fuse_pairs(RegisterCode& code);

}  // namespace oprec
