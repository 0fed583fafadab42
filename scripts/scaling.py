#!/usr/bin/env python3
# What two threads can give: validate --jobs 1 alone, two validate --jobs 1 processes side by side,
# and validate --jobs 2, interleaved, best of N wall clock each.
#   python3 scripts/scaling.py N target/release/qipu INPUT
import subprocess,sys,time
n=int(sys.argv[1]); b=sys.argv[2]; f=sys.argv[3]
def run(args):
    return subprocess.Popen([b]+args,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
solo=[];pair=[];j2=[]
for _ in range(n):
    s=time.time(); run(['validate','--jobs','1',f]).wait(); solo.append(time.time()-s)
    s=time.time(); p=[run(['validate','--jobs','1',f]) for _ in range(2)]; [q.wait() for q in p]; pair.append(time.time()-s)
    s=time.time(); run(['validate','--jobs','2',f]).wait(); j2.append(time.time()-s)
a,p2,c=min(solo),min(pair),min(j2)
print(f"{f}: jobs1 {a:.3f}s; two jobs1 side by side {p2:.3f}s (throughput x{2*a/p2:.2f}); jobs2 {c:.3f}s (x{a/c:.2f})")
