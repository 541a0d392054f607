#!/usr/bin/python3
"""Corpus BLEU of whitespace-tokenized files with NLTK (Debian's python3-nltk), to check
`aligndb score` against an independent implementation.

Usage: tools/check_bleu_nltk.py HYP REF [REF ...]
"""
import sys

from nltk.translate.bleu_score import corpus_bleu


def main():
    hyp = [line.split() for line in open(sys.argv[1], encoding="utf-8")]
    refs = [[line.split() for line in open(p, encoding="utf-8")] for p in sys.argv[2:]]
    per_sentence = [[r[i] for r in refs] for i in range(len(hyp))]
    print(f"{corpus_bleu(per_sentence, hyp):.6f}")


if __name__ == "__main__":
    main()
