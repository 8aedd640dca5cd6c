" Syntax of oprec's op records (grammar/Rec.g4). The language server adds
" semantic tokens on top: which name is a field, an op, a switch.
if exists('b:current_syntax') | finish | endif

syn keyword recDecl import op part slot fn default field context switches layerparts opvector profile kind run model
syn keyword recClause switch needs comm of in when matches
syn keyword recOperator and or not if else
syn keyword recConstant True False
syn keyword recType int float bool str
syn keyword recSpecial bytes total
syn match recNumber "\<\d\+\(\.\d*\)\=\([eE][+-]\=\d\+\)\=\>"
syn match recNumber "\.\d\+\([eE][+-]\=\d\+\)\=\>"
syn region recString start=+"+ skip=+\\"+ end=+"+ oneline
syn match recDirective "#\s*rec:.*$" contained
syn match recComment "#.*$" contains=recDirective,@Spell

hi def link recDecl Keyword
hi def link recClause Keyword
hi def link recOperator Operator
hi def link recConstant Boolean
hi def link recType Type
hi def link recSpecial Special
hi def link recNumber Number
hi def link recString String
hi def link recComment Comment
hi def link recDirective PreProc

let b:current_syntax = 'rec'
