// The .rec language: op records and their byte formulas.
//
// A file is a sequence of declarations, one per line. Expressions are
// Python's: inside ( ) a newline is white space, as in Python, so a long
// formula is wrapped in parentheses. (The C++ front end drops those newlines
// before the parser sees them: src/syntax/token_filter.h. Its lexer is
// written by hand, src/syntax/lexer.h, and must give the tokens the lexer
// rules below define: the tests and the fuzz target check they agree.)
grammar Rec;

// ---- declarations ------------------------------------------------------------

recFile     : NEWLINE* (decl (NEWLINE+ decl)*)? NEWLINE* EOF ;

// One expression alone, as `oprec calc` and the REPL take it.
exprInput   : NEWLINE* expr NEWLINE* EOF ;

decl        : importDecl
            | vocabDecl
            | defaultDecl
            | opDecl
            | partDecl
            | slotDecl
            | fnDecl
            | fieldDecl
            | runDecl
            | profileDecl
            | termDecl
            ;

importDecl  : 'import' STRING ;

// The vocabulary the records are checked against.
vocabDecl   : kind=('switches' | 'layerparts' | 'opvector') nameList ;

defaultDecl : 'default' name '=' expr ;

opDecl      : 'op' name opClause* ;
partDecl    : 'part' name 'of' name opClause* ;
opClause    : 'switch' name        # switchClause
            | 'needs' nameList     # needsClause
            | 'comm'               # commClause
            ;

slotDecl    : 'slot' name 'in' name ('when' expr)? '{' NEWLINE* (slotEntry (NEWLINE+ slotEntry)*)? NEWLINE* '}' ;
slotEntry   : name '=' expr ;

// The field schema: the layer fields and context values a formula may read,
// each with its types (`?`: may be absent or stated as none), unit and meaning.
fieldDecl   : kind=('field' | 'context') name ':' fieldType (',' unit=STRING (',' doc=STRING)?)? ;
fieldType   : name ('|' name)* optional='?'? ;

// The op profiles of the architecture families (stdlib/profiles.rec): a
// family's op counts per layer kind, in the order of `opvector` or by name,
// its default kind, its run and model defaults, and the model-name prefixes
// that choose it. A model default may hold only for model names with one of
// its own prefixes (`model qkv_bias = True matches "qwen2"`). A top-level `run` states the run default of every family.
runDecl     : 'run' name '=' expr ;
profileDecl : 'profile' name ('matches' STRING (',' STRING)*)?
              '{' NEWLINE* (profileItem (NEWLINE+ profileItem)*)? NEWLINE* '}' ;
profileItem : 'kind' name flavour* '=' opCounts     # kindItem
            | 'default' 'kind' name                 # defaultKindItem
            | which=('run' | 'model') name '=' expr ('matches' STRING (',' STRING)*)? # settingItem
            ;
// `ffn dense`, `attention linear`: what a kind changes of the model's layer.
flavour     : name name ;
// By name, a line may end after a comma.
opCounts    : INT+                                   # countVector
            | name INT (',' NEWLINE* name INT)*      # namedCounts
            ;

// The whole-rank memory model (records/rank*.rec): each `term` is bytes a
// rank holds, summed into its stage's total; a `beside` term is reported
// beside the total, not in it (the allocator's reserve).
termDecl    : kind=('term' | 'beside') name '=' expr ;

fnDecl      : 'fn' name '(' (name (',' name)* ','?)? ')' '=' expr ;

nameList    : name (',' name)* ;

// ---- expressions: Python's grammar, restricted -------------------------------

// One rule, Python's precedence from the tightest (first) to the loosest
// (last): one parse-tree node per operator, not one per precedence level per
// operand, which is most of the parser's cost on a large file. ANTLR takes a
// prefix operator's operand at any level (`a + not b`, `a if b if c else d
// else e`); Python does not, and src/syntax/ast_build.cpp refuses those as
// syntax errors. A chain a < b < c is grouped (a < b) < c here and made one
// comparison there.
expr        : '(' expr ')'                                # parenExpr
            | INT                                         # intExpr
            | FLOAT                                       # floatExpr
            | IMAG                                        # imagExpr
            | STRING+                                     # stringExpr
            | 'True'                                      # trueExpr
            | 'False'                                     # falseExpr
            | 'None'                                      # noneExpr
            | '...'                                       # ellipsisExpr
            | (NAME | 'switches' | 'layerparts' | 'opvector' | 'default' | 'op'
              | 'part' | 'of' | 'switch' | 'needs' | 'comm' | 'slot' | 'when'
              | 'fn' | 'import' | 'field' | 'context'
              | 'run' | 'profile' | 'matches' | 'kind' | 'model' | 'term' | 'beside')  # nameExpr
            | expr callArgs                               # callExpr
            | <assoc=right> expr '**' expr                # powerExpr
            | op=('+' | '-') expr                         # signExpr
            | expr op=('*' | '/' | '//' | '%') expr       # mulExpr
            | expr op=('+' | '-') expr                    # addExpr
            | expr op=('<' | '>' | '==' | '>=' | '<=' | '!=') expr  # compareExpr
            | 'not' expr                                  # notExpr
            | expr 'and' expr                             # andExpr
            | expr 'or' expr                              # orExpr
            | <assoc=right> expr 'if' expr 'else' expr    # ifElseExpr
            ;
callArgs    : '(' (expr (',' expr)* ','?)? ')' ;

// The declaration keywords are names too where a name is expected, so a
// field may be called `op` or `slot`; Python's keywords are not. (nameExpr
// lists the same tokens itself: a name is most of a formula's leaves, and a
// rule of its own would cost a parse-tree node each; tests/unit/test_syntax.cpp
// checks the two lists agree.)
name        : NAME | 'switches' | 'layerparts' | 'opvector' | 'default' | 'op'
            | 'part' | 'of' | 'switch' | 'needs' | 'comm' | 'slot' | 'when'
            | 'fn' | 'import' | 'field' | 'context'
            | 'run' | 'profile' | 'matches' | 'kind' | 'model' | 'term' | 'beside' ;

// ---- tokens ------------------------------------------------------------------

INT         : DECINT | '0' [xX] ('_'? HEXDIGIT)+ | '0' [oO] ('_'? [0-7])+ | '0' [bB] ('_'? [01])+ ;
FLOAT       : POINTFLOAT | EXPFLOAT ;
IMAG        : (FLOAT | DIGITPART) [jJ] ;
STRING      : STRPREFIX? ('\'' (~['\\\r\n] | '\\' .)* '\'' | '"' (~["\\\r\n] | '\\' .)* '"') ;
NAME        : [a-zA-Z_] [a-zA-Z_0-9]* ;

NEWLINE     : '\r'? '\n' | '\r' ;
CONTINUE    : '\\' [ \t]* ('\r'? '\n' | '\r') -> skip ;
WS          : [ \t\f]+ -> skip ;
COMMENT     : '#' ~[\r\n]* -> channel(HIDDEN) ;

// Anything else is one token the parser refuses, so the lexer never fails.
ERRCHAR     : . ;

fragment DECINT     : [1-9] ('_'? [0-9])* | '0' ('_'? '0')* ;
fragment DIGITPART  : [0-9] ('_'? [0-9])* ;
fragment POINTFLOAT : DIGITPART? '.' DIGITPART | DIGITPART '.' ;
fragment EXPFLOAT   : (DIGITPART | POINTFLOAT) [eE] [+-]? DIGITPART ;
fragment HEXDIGIT   : [0-9a-fA-F] ;
fragment STRPREFIX  : [rRbBuUfF] | [rR][bBfF] | [bBfF][rR] ;
