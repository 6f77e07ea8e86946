import { createCjkCodec } from './cjk-codec.js';
import { doubleByteScheme, eucJpScheme, eucKrScheme, gb18030Scheme } from './cjk-schemes.js';
import { BIG5_DATA } from './generated/big5-data.js';
import { EUC_JP_DATA } from './generated/euc-jp-data.js';
import { EUC_KR_DATA } from './generated/euc-kr-data.js';
import { GB18030_DATA } from './generated/gb18030-data.js';
import { GBK_DATA } from './generated/gbk-data.js';
import { SHIFT_JIS_DATA } from './generated/shift-jis-data.js';

/** shift_jis as Python has it (JIS X 0208; not cp932: `87 40` is invalid). */
export const shiftJisCodec = createCjkCodec('shift_jis', SHIFT_JIS_DATA, doubleByteScheme);
/** euc-jp as Python has it (JIS X 0208 and 0212, no NEC rows). */
export const eucJpCodec = createCjkCodec('euc-jp', EUC_JP_DATA, eucJpScheme);
/** gbk as Python has it (a single `80` is invalid, no €). */
export const gbkCodec = createCjkCodec('gbk', GBK_DATA, doubleByteScheme);
/** gb18030 as Python has it, including its private-use mappings and every scalar through 4-byte sequences. */
export const gb18030Codec = createCjkCodec('gb18030', GB18030_DATA, gb18030Scheme);
/** big5 as Python has it (not Big5-HKSCS). */
export const big5Codec = createCjkCodec('big5', BIG5_DATA, doubleByteScheme);
/** euc-kr as Python has it (KS X 1001 plus 8-byte make-up sequences; not cp949). */
export const eucKrCodec = createCjkCodec('euc-kr', EUC_KR_DATA, eucKrScheme);
