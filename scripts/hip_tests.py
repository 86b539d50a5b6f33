# SPDX-License-Identifier: MIT
"""Builds areas of ROCm's hip-tests unit suite (catch/unit/<area>) with anyhip's hipcc, as shipped,
and runs them on the CPU device. Called by scripts/hip-tests.sh, which documents the options.

Every test source is compiled and linked on its own (with the suite's Catch2 main and the area's
helper sources), so one source that does not compile costs only itself. Each test case then runs
in its own process under a time limit, so one crash or hang costs only that case. AMD's own
exclusion list (hipTestMain/config/config_amd_linux) is applied; a case that prints the suite's
HIP_SKIP_THIS_TEST marker counts as skipped, as under the suite's CTest setup.
"""
import collections
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
import time

AREAS = ("memory stream event errorHandling device deviceLib warp atomics syncthreads kernel graph "
         "cooperativeGrps occupancy module launchBounds printf texture surface").split()


def env_int(name, default):
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


class Ctx:
    def __init__(self, src, out, hipcc):
        self.catch = src if os.path.isdir(os.path.join(src, "unit")) else os.path.join(src, "catch")
        self.out = out
        self.hipcc = hipcc
        self.jobs = env_int("JOBS", 2)
        self.compile_timeout = env_int("COMPILE_TIMEOUT", 600)
        self.case_timeout = env_int("CASE_TIMEOUT", 60)
        self.rerun_alone = env_int("RERUN_ALONE", 1)
        self.areas = os.environ.get("AREAS", " ".join(AREAS)).split()
        self.force = os.environ.get("FORCE", "0") == "1"
        self.only = os.environ.get("ONLY", "")  # a regular expression over "area/source"
        self.flags = ["--offload-arch=cpu", "-std=c++17", "-O1", "-w",
                      "-I" + os.path.join(self.catch, "include"),
                      "-I" + os.path.join(self.catch, "external", "Catch2"),
                      "-I" + os.path.join(self.catch, "external", "picojson"),
                      "-I" + os.path.join(self.catch, "kernels"),
                      "-DKERNELS_PATH=\"%s/\"" % os.path.join(self.catch, "kernels")]
        self.flags += os.environ.get("HIPCC_FLAGS", "").split()
        self.src_flags = {}  # (area, source) -> the flags its CMake build adds (source_flags)


def run(cmd, log, timeout, cwd=None, env=None):
    """Runs cmd, appending its output to log; returns the exit status (124 on timeout)."""
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        try:
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout,
                                  cwd=cwd, env=env).returncode
        except subprocess.TimeoutExpired:
            f.write("\n[hip-tests.sh] timed out after %d s\n" % timeout)
            return 124


def newer(target, *sources):
    if not os.path.exists(target):
        return False
    t = os.path.getmtime(target)
    return all(os.path.getmtime(s) <= t for s in sources if os.path.exists(s))


# ---------------------------------------------------------------------------------------------
# Sources

def source_flags(cm):
    """{source: [flags]} of the set_source_files_properties(<source> PROPERTIES COMPILE_OPTIONS
    or COMPILE_FLAGS "<flags>") calls of an area's CMakeLists.txt that its build for AMD makes
    (-mprintf-kind=buffered for printfNonHost.cc, for instance): those inside an
    if(HIP_PLATFORM ... "nvidia") branch (or the else() of an "amd" one) are left out."""
    out, stack = {}, []  # stack: "amd", "nvidia" or "" per open if()
    for line in cm.splitlines():
        line = line.split("#", 1)[0].strip()
        m = re.match(r"(if|elseif|else|endif)\s*\((.*)\)?", line, re.I)
        if m:
            kw, cond = m.group(1).lower(), m.group(2) or ""
            plat = ("nvidia" if "nvidia" in cond else "amd" if re.search(r'"amd"', cond) else "") \
                if "HIP_PLATFORM" in cond else ""
            if kw == "if":
                stack.append(plat)
            elif kw == "elseif" and stack:
                stack[-1] = plat
            elif kw == "else" and stack:
                stack[-1] = {"amd": "nvidia", "nvidia": "amd"}.get(stack[-1], "")
            elif kw == "endif" and stack:
                stack.pop()
            continue
        m = re.match(r'set_source_files_properties\(\s*([\w.]+)\s+PROPERTIES\s+'
                     r'COMPILE_(?:OPTIONS|FLAGS)\s+"?([^")]*)"?\s*\)', line)
        if m and "nvidia" not in stack:
            out.setdefault(m.group(1), []).extend(m.group(2).split())
    return out


def classify(ctx, area):
    """Returns (tests, helpers, exes{name: src}, codeobjs) of one area, read from its files and
    CMakeLists.txt: test sources hold TEST_CASE; helpers (*common.cc, DriverContext.cc) are linked
    into each test of the area; add_executable() programs are built under their CMake name; other
    sources with kernels are code objects for hipModuleLoad (hipcc --genco, <stem>.code, and the
    other names CMake's add_custom_target gives code objects of the same source); the
    *_negative_kernels.cc / *_error_kernels.cc sources are compile-failure inputs and are left
    alone."""
    d = os.path.join(ctx.catch, "unit", area)
    cm = open(os.path.join(d, "CMakeLists.txt")).read() if os.path.exists(
        os.path.join(d, "CMakeLists.txt")) else ""
    exes = {}
    for m in re.finditer(r"add_executable\(\s*(\w+)\s+(?:EXCLUDE_FROM_ALL\s+)?([\w.]+)\s*\)", cm):
        exes[m.group(1)] = m.group(2)
    exe_srcs = set(exes.values())
    for f, fl in source_flags(cm).items():
        ctx.src_flags[(area, f)] = fl
    tests, helpers, codeobjs = [], [], []
    for f in sorted(os.listdir(d)):
        if not f.endswith((".cc", ".cpp")):
            continue
        text = open(os.path.join(d, f), errors="replace").read()
        if "TEST_CASE" in text:
            tests.append(f)
        elif f in exe_srcs:
            continue
        elif re.search(r"(common|DriverContext)\.cc$", f, re.I):
            helpers.append(f)
        elif re.search(r"(negative|error)_kernels|builtin_kernels", f):
            continue
        elif "__global__" in text or area == "module":
            codeobjs.append((os.path.splitext(f)[0] + ".code", f))
    # Code objects CMake builds under another name from one of those sources
    # (copiousArgKernel0.code ... from copiousArgKernel.cc, with AMD-only -mllvm flags that
    # mean nothing here).
    srcs = set(f for _, f in codeobjs)
    for m in re.finditer(r"add_custom_target\(\s*([\w.]+\.code)\s+COMMAND[^)]*?--genco[^)]*?"
                         r"/(\w+\.(?:cc|cpp))\s", cm):
        if m.group(2) in srcs and (m.group(1), m.group(2)) not in codeobjs:
            codeobjs.append((m.group(1), m.group(2)))
    return tests, helpers, exes, codeobjs


# ---------------------------------------------------------------------------------------------
# Build

def build_main(ctx):
    """The suite's Catch2 main and test context (hipTestMain) and its shared kernels
    (catch/kernels/*.cpp, the KERNELS objects of its CMake build), compiled once."""
    objs = []
    d = os.path.join(ctx.out, "main")
    os.makedirs(d, exist_ok=True)
    srcs = [os.path.join(ctx.catch, "hipTestMain", s)
            for s in ("main.cc", "hip_test_context.cc", "hip_test_features.cc")]
    kdir = os.path.join(ctx.catch, "kernels")
    if os.path.isdir(kdir):
        srcs += [os.path.join(kdir, f) for f in sorted(os.listdir(kdir)) if f.endswith(".cpp")]
    for src in srcs:
        s = os.path.basename(src)
        obj = os.path.join(d, s + ".o")
        log = os.path.join(d, s + ".log")
        if not newer(obj, src, ctx.hipcc):
            open(log, "w").close()
            if run([ctx.hipcc] + ctx.flags + ["-c", src, "-o", obj], log, ctx.compile_timeout):
                return None, log
        objs.append(obj)
    return objs, None


def build_helper(ctx, area, f):
    d = os.path.join(ctx.out, area)
    obj = os.path.join(d, "helpers", f + ".o")
    log = os.path.join(d, "logs", f + ".log")
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    src = os.path.join(ctx.catch, "unit", area, f)
    if newer(obj, src, ctx.hipcc):
        return obj
    open(log, "w").close()
    if run([ctx.hipcc] + ctx.flags + ["-c", src, "-o", obj], log, ctx.compile_timeout) == 0:
        return obj
    return None


def build_test(ctx, area, f, main_objs, helper_objs):
    """Compiles and links one test source; returns (area, f, ok, log)."""
    d = os.path.join(ctx.out, area)
    stem = os.path.splitext(f)[0]
    exe = os.path.join(d, stem)
    obj = os.path.join(d, "obj", f + ".o")
    log = os.path.join(d, "logs", f + ".log")
    src = os.path.join(ctx.catch, "unit", area, f)
    failed = log + ".failed"
    if not ctx.force and newer(exe, src, ctx.hipcc) and not os.path.exists(failed):
        return area, f, True, log
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    open(log, "w").close()
    flags = ctx.flags + ctx.src_flags.get((area, f), [])
    ok = run([ctx.hipcc] + flags + ["-c", src, "-o", obj], log, ctx.compile_timeout) == 0
    if ok:
        ok = run([ctx.hipcc, "-o", exe, obj] + main_objs + helper_objs + ["-lpthread"], log,
                 ctx.compile_timeout) == 0
    if ok:
        if os.path.exists(failed):
            os.remove(failed)
    else:
        open(failed, "w").close()
        if os.path.exists(exe):
            os.remove(exe)
    return area, f, ok, log


def link_with_siblings(ctx, area, f, main_objs, helper_objs):
    """A source that compiles but does not link because it uses another source's definitions
    (printf/hipPrintfManyWaves.cc reads hipPrintfBasic.cc's strings: the suite's CMake links an
    area's sources into one program) is linked again with the objects of the area's sources that
    define what is missing. Only its own test cases run (cases_of). Returns whether it links."""
    d = os.path.join(ctx.out, area)
    exe = os.path.join(d, os.path.splitext(f)[0])
    obj = os.path.join(d, "obj", f + ".o")
    log = os.path.join(d, "logs", f + ".log")
    try:
        text = open(log, errors="replace").read()
    except OSError:
        return False
    missing = set(re.sub(r"\(.*", "", m) for m in re.findall(r"undefined reference to `([^']*)'", text))
    nm = shutil.which("nm")
    if not missing or not os.path.exists(obj) or nm is None:
        return False
    siblings = []
    odir = os.path.join(d, "obj")
    for o in sorted(os.listdir(odir)):
        path = os.path.join(odir, o)
        if path == obj or not o.endswith(".o"):
            continue
        p = subprocess.run([nm, "-C", "--defined-only", path], capture_output=True, text=True)
        names = set(re.sub(r"\(.*", "", l.split(" ", 2)[2]) for l in p.stdout.splitlines()
                    if l.count(" ") >= 2 and l.split(" ", 2)[1] in "BDGRSTV")
        if missing & names:
            siblings.append(path)
            missing -= names
    if missing or not siblings:
        return False
    with open(log, "a") as lf:
        lf.write("\n[hip-tests.sh] linking again with %s (the suite links the area's sources "
                 "into one program)\n" % " ".join(os.path.basename(s) for s in siblings))
    ok = run([ctx.hipcc, "-o", exe, obj] + siblings + main_objs + helper_objs + ["-lpthread"],
             log, ctx.compile_timeout) == 0
    if ok:
        os.remove(log + ".failed")
        with open(exe + ".own-cases", "w") as out:
            out.write(f + "\n")
    return ok


def cases_of(ctx, area, f):
    """The test case names a source defines (TEST_CASE, TEMPLATE_TEST_CASE...: the first string)."""
    src = os.path.join(ctx.catch, "unit", area, f)
    text = open(src, errors="replace").read()
    return set(re.findall(r'\b[A-Z_]*TEST_CASE[A-Z_]*\s*\(\s*"([^"]*)"', text))


def build_extra(ctx, area, kind, name, f):
    """A code object (kind 'code') or a helper program (kind 'exe') the tests load or spawn."""
    d = os.path.join(ctx.out, area)
    src = os.path.join(ctx.catch, "unit", area, f)
    log = os.path.join(d, "logs", "extra-" + name + ".log")
    out = os.path.join(d, name)
    if newer(out, src, ctx.hipcc):
        return True
    open(log, "w").close()
    if kind == "code":
        cmd = [ctx.hipcc, "--genco"] + ctx.flags + [src, "-o", out]
    else:
        cmd = [ctx.hipcc] + ctx.flags + [src, "-o", out, "-lpthread"]
    return run(cmd, log, ctx.compile_timeout) == 0


# ---------------------------------------------------------------------------------------------
# Exclusions and runs

def exclusions(ctx):
    """AMD's config_amd_linux DisabledTests (common part), as regular expressions: '*' is '.*',
    as the suite's own TestContext reads them."""
    cfg = os.path.join(ctx.catch, "hipTestMain", "config", "config_amd_linux")
    if not os.path.exists(cfg):
        return []
    cpp = shutil.which("cpp") or shutil.which("clang-cpp-14")
    try:
        text = subprocess.run([cpp, "-P", "-DGITHASH=\"anyhip\"", cfg], capture_output=True,
                              text=True, check=True).stdout
        names = json.loads(text).get("DisabledTests", [])
    except (subprocess.CalledProcessError, ValueError, TypeError) as e:
        print("warning: cannot read %s: %s" % (cfg, e), file=sys.stderr)
        return []
    return [re.compile(n.replace("*", ".*")) for n in names if not n.startswith("NOTE")]


def catch_spec(name):
    """A Catch2 v2 test spec that matches exactly this test name."""
    return "".join("\\" + c if c in "\\,[]\"*~" else c for c in name)


def list_cases(exe, cwd):
    try:
        p = subprocess.run([exe, "--list-test-names-only"], capture_output=True, text=True,
                           timeout=60, cwd=cwd, env=dict(os.environ, ANYHIP_DEVICES="cpu"))
    except subprocess.TimeoutExpired:
        return None
    if p.returncode < 0:
        return None
    return [l for l in p.stdout.splitlines() if l.strip() and not l.startswith(" ")]


def run_case(ctx, area, src, exe, idx, name):
    d = os.path.join(ctx.out, area)
    log = os.path.join(d, "runs", os.path.splitext(src)[0] + ".%d.log" % idx)
    os.makedirs(os.path.dirname(log), exist_ok=True)
    open(log, "w").close()
    env = dict(os.environ, ANYHIP_DEVICES="cpu")
    t0 = time.time()
    rc = run([exe, catch_spec(name)], log, ctx.case_timeout, cwd=d, env=env)
    dt = time.time() - t0
    text = open(log, errors="replace").read()
    if "HIP_SKIP_THIS_TEST" in text and rc == 0:
        st = "skip"
    elif rc == 0 and "No test cases matched" not in text:
        st = "pass"
    elif rc == 124:
        st = "fail:timeout"
    elif rc < 0:
        st = "fail:signal %d" % -rc
    else:
        st = "fail"
    return area, src, name, st, dt, log


# ---------------------------------------------------------------------------------------------
# Reports

def first_error(log):
    """The first compiler or linker error of a log, with paths, lines and numbers taken out so
    that the same cause in different sources groups together."""
    try:
        lines = open(log, errors="replace").read().splitlines()
    except OSError:
        return "(no log)"
    for l in lines:
        if "timed out after" in l:
            return "compile timed out"
    for l in lines:
        m = re.search(r"\b(?:fatal )?error: (.*)", l)
        if m:
            msg = m.group(1)
            if "undefined reference" in l or "ld returned" in l:
                continue
            return re.sub(r"\s+", " ", msg)[:160]
    for l in lines:
        m = re.search(r"undefined reference to `([^']*)'", l)
        if m:
            return "undefined reference to `%s'" % re.sub(r"\(.*", "", m.group(1))
    for l in reversed(lines):
        if l.strip() and not l.startswith("$ "):
            return l.strip()[:160]
    return "(empty log)"


def failure_reason(log):
    """A short reason for a failed case: an assertion or abort message of the program, else
    Catch2's first failed expression with its expansion, else the last line."""
    try:
        lines = open(log, errors="replace").read().splitlines()
    except OSError:
        return "(no log)"
    for l in lines:
        if "timed out after" in l:
            return "timed out"
        if "Assertion `" in l:
            return "assert: " + l.split("Assertion", 1)[1].strip()[:120]
        if l.startswith("anyhip:") or "hipcc:" in l:
            return l.strip()[:120]
    for i, l in enumerate(lines):
        if l.endswith("FAILED:"):
            rest = [x.strip() for x in lines[i + 1:i + 8] if x.strip()]
            if rest and rest[0].startswith("due to a fatal error"):
                return " ".join(rest[:2])[:120]
            msg = rest[0] if rest else ""
            for j, x in enumerate(rest):
                if x == "with expansion:" and j + 1 < len(rest):
                    msg += "  [" + rest[j + 1] + "]"
                    break
            for j, x in enumerate(rest):
                if x.startswith("Error:") or x.startswith("Str:"):
                    msg += "  " + x
                    break
            return re.sub(r"\s+", " ", msg)[:160]
    for l in reversed(lines):
        if l.strip() and not l.startswith("$ "):
            return l.strip()[:120]
    return "(empty log)"


def main():
    if len(sys.argv) < 4:
        print("usage: hip_tests.py <hip-tests checkout> <build dir> <hipcc>", file=sys.stderr)
        return 2
    ctx = Ctx(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3])
    stage = os.environ.get("STAGE", "all")
    os.makedirs(ctx.out, exist_ok=True)
    t_start = time.time()
    only = re.compile(ctx.only) if ctx.only else None

    plan = {}
    for area in ctx.areas:
        if not os.path.isdir(os.path.join(ctx.catch, "unit", area)):
            print("warning: no area %s" % area, file=sys.stderr)
            continue
        tests, helpers, exes, codeobjs = classify(ctx, area)
        if only:
            tests = [t for t in tests if only.search(area + "/" + t)]
        plan[area] = (tests, helpers, exes, codeobjs)
        os.makedirs(os.path.join(ctx.out, area, "logs"), exist_ok=True)

    built = {}  # (area, src) -> ok
    if stage in ("all", "build"):
        main_objs, mlog = build_main(ctx)
        if main_objs is None:
            print("the suite's main (hipTestMain) does not compile: see %s" % mlog)
            print(first_error(mlog))
            return 1
        with cf.ThreadPoolExecutor(ctx.jobs) as pool:
            helper_objs = {}
            futs = {pool.submit(build_helper, ctx, a, h): (a, h)
                    for a, p in plan.items() for h in p[1]}
            for fu, (a, h) in futs.items():
                o = fu.result()
                if o:
                    helper_objs.setdefault(a, []).append(o)
                else:
                    print("warning: helper %s/%s does not compile" % (a, h))
            extra = [pool.submit(build_extra, ctx, a, "code", n, c)
                     for a, p in plan.items() for n, c in p[3]]
            extra += [pool.submit(build_extra, ctx, a, "exe", n, s)
                      for a, p in plan.items() for n, s in p[2].items()]
            jobs = [pool.submit(build_test, ctx, a, t, main_objs, helper_objs.get(a, []))
                    for a, p in plan.items() for t in p[0]]
            n = 0
            for fu in cf.as_completed(jobs):
                a, f, ok, log = fu.result()
                built[(a, f)] = ok
                n += 1
                if not ok:
                    print("[%d/%d] FAIL %s/%s: %s" % (n, len(jobs), a, f, first_error(log)),
                          flush=True)
            extra_ok = sum(1 for e in extra if e.result())
        # Sources that need another source's definitions, once every object is there.
        for (a, f), ok in sorted(built.items()):
            if not ok and link_with_siblings(ctx, a, f, main_objs, helper_objs.get(a, [])):
                built[(a, f)] = True
                print("linked %s/%s with the objects of the area's sources it needs" % (a, f),
                      flush=True)
    else:
        for a, p in plan.items():
            for t in p[0]:
                built[(a, t)] = os.path.exists(os.path.join(ctx.out, a, os.path.splitext(t)[0]))
        extra_ok = None
    t_build = time.time() - t_start

    results = []
    if stage in ("all", "run"):
        excl = exclusions(ctx)
        cases = []
        for (a, f), ok in sorted(built.items()):
            if not ok:
                continue
            exe = os.path.join(ctx.out, a, os.path.splitext(f)[0])
            names = list_cases(exe, os.path.join(ctx.out, a))
            if names is None:
                results.append((a, f, "(listing the test cases)", "fail:list", 0.0, ""))
                continue
            if os.path.exists(exe + ".own-cases"):  # linked with other sources' objects
                own = cases_of(ctx, a, f)
                names = [nm for nm in names if any(nm == o or nm.startswith(o + " - ") for o in own)]
            for i, nm in enumerate(names):
                if any(r.fullmatch(nm) for r in excl):
                    results.append((a, f, nm, "skip:excluded", 0.0, ""))
                else:
                    cases.append((a, f, exe, i, nm))
        with cf.ThreadPoolExecutor(ctx.jobs) as pool:
            futs = [pool.submit(run_case, ctx, *c) for c in cases]
            for fu in cf.as_completed(futs):
                r = fu.result()
                results.append(r)
                if r[3].startswith("fail"):
                    print("FAIL %s/%s: %s (%s) %s" % (r[0], r[1], r[2], r[3], r[5]), flush=True)
        # The limit is there to catch hangs, not to count how busy the machine was: a case that
        # ran past it while sharing the cores with other cases runs once more, alone.
        if ctx.jobs > 1 and ctx.rerun_alone:
            slow = [i for i, r in enumerate(results) if r[3] == "fail:timeout"]
            for i in slow:
                a, f, nm = results[i][:3]
                c = next(c for c in cases if c[0] == a and c[1] == f and c[4] == nm)
                r = run_case(ctx, *c)
                print("RERUN alone %s/%s: %s: %s in %.1f s" % (a, f, nm, r[3], r[4]), flush=True)
                results[i] = r
        with open(os.path.join(ctx.out, "results.tsv"), "w") as f:
            for r in sorted(results):
                f.write("%s\t%s\t%s\t%s\t%.2f\t%s\n" % r)
    if stage == "report":  # the last run's results again, with the build state as it is
        with open(os.path.join(ctx.out, "results.tsv")) as f:
            for l in f:
                a, src, name, st, dt, log = l.rstrip("\n").split("\t")
                results.append((a, src, name, st, float(dt), log))
    t_all = time.time() - t_start

    # Summary.
    total = len(built)
    ok = sum(1 for v in built.values() if v)
    print("\n== hip-tests on anyhip (%s)" % ctx.catch)
    print("areas: %s" % " ".join(plan))
    print("sources compiled: %d / %d (%.1f%%)" % (ok, total, 100.0 * ok / max(total, 1)))
    if extra_ok is not None:
        n_extra = sum(len(p[2]) + len(p[3]) for p in plan.values())
        print("code objects and helper programs built: %d / %d" % (extra_ok, n_extra))
    groups = collections.Counter()
    examples = {}
    for (a, f), v in built.items():
        if not v:
            e = first_error(os.path.join(ctx.out, a, "logs", f + ".log"))
            groups[e] += 1
            examples.setdefault(e, "%s/%s" % (a, f))
    if groups:
        print("\ncompile failures, grouped by first error (count, example):")
        for e, c in groups.most_common(40):
            print("%4d  %s   [%s]" % (c, e, examples[e]))
    if results:
        st = collections.Counter(r[3].split(":")[0] for r in results)
        run_n = st["pass"] + st["fail"]
        print("\ntest cases: %d passed, %d failed, %d skipped (%d by config_amd_linux); "
              "pass rate of those run: %.1f%%" % (st["pass"], st["fail"], st["skip"],
                                                  sum(1 for r in results
                                                      if r[3] == "skip:excluded"),
                                                  100.0 * st["pass"] / max(run_n, 1)))
        per = collections.defaultdict(collections.Counter)
        for r in results:
            per[r[0]][r[3].split(":")[0]] += 1
        print("\n%-16s %6s %6s %6s %8s" % ("area", "pass", "fail", "skip", "sources"))
        for a in plan:
            srcs = sum(1 for (aa, f) in built if aa == a)
            srcs_ok = sum(1 for (aa, f), v in built.items() if aa == a and v)
            print("%-16s %6d %6d %6d %4d/%-4d" % (a, per[a]["pass"], per[a]["fail"], per[a]["skip"],
                                                srcs_ok, srcs))
        fails = [r for r in sorted(results) if r[3].startswith("fail")]
        if fails:
            print("\nfailed cases (logs under %s/<area>/runs):" % ctx.out)
            for r in fails:
                print("  %s/%s: %s [%s] %s" % (r[0], r[1], r[2], r[3],
                                              failure_reason(r[5]) if r[5] else ""))
    print("\nresults: %s/results.tsv; build logs: %s/<area>/logs" % (ctx.out, ctx.out))
    print("time: build %.0f s, total %.0f s" % (t_build, t_all))
    return 0


if __name__ == "__main__":
    sys.exit(main())
