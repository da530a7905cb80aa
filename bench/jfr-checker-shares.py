#!/usr/bin/env python3
"""Where the checker's time goes, from a JFR recording of `isowatch check`.

Usage: jfr print --events jdk.ExecutionSample check.jfr > samples.txt
       python3 bench/jfr-checker-shares.py samples.txt

Each sample is put under the innermost isowatch frame (collections skipped): per-key traces and
their inference, the dependency graph and cycle search, reading the file, the checker's own
bookkeeping (transaction table, dispatch), or the JVM. The lines of IncrementalChecker.complete
that call the inference and the session order (inlined, so JFR names no deeper frame) count for
those (their line numbers are those of the commit decision 0021 cites). Decision 0021 uses it to estimate what a history's per-key work would take off one task.
"""
import re, collections, sys
txt=open(sys.argv[1]).read()
cat=collections.Counter(); n=0
for e in txt.split('jdk.ExecutionSample')[1:]:
    frames=re.findall(r'^\s+(\S+)\s+line:\s*(\d+)',e,flags=re.M)
    if not frames: continue
    n+=1
    c='jvm'
    for f,l in frames:
        if 'io.isowatch.' not in f or '.collect.' in f: continue
        m=re.search(r'io\.isowatch\.([a-z]+)\.(?:[a-z]+\.)?([A-Za-z]+)\.(\w+)',f)
        if not m: continue
        pkg,cls,meth=m.groups()
        if pkg in ('graph','cycle') or cls in ('CycleFinder','SessionOrder','FleetRealtime','RealtimeBuffer'): c='graph'
        elif pkg=='trace' or cls in ('ListAppendInference','RegisterInference','TraceFindings','ReadSettling','CompletedReads','LostUpdates','TransactionChecks','RealtimeVersionOrder','MicroOpCodec'): c='traces'
        elif pkg in ('history','cli'): c='reading'
        elif cls=='IncrementalChecker' and meth=='complete' and l in ('580','581'): c='traces'
        elif cls=='IncrementalChecker' and meth=='complete' and l=='582': c='graph'
        else: c='bookkeeping'
        break
    cat[c]+=1
chk=sum(v for k,v in cat.items() if k not in ('reading','jvm'))
for k,v in cat.most_common(): print(f"{k:12s} {v:5d} {100*v/n:5.1f}% of all" + (f", {100*v/chk:5.1f}% of the checker's" if k not in ('reading','jvm') else ''))
