# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#   http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing,
# software distributed under the License is distributed on an
# "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
# KIND, either express or implied.  See the License for the
# specific language governing permissions and limitations
# under the License.
"""Reference fix: WebGPU and Metal refuse a type they lack with a ValueError naming it.

The bug. ``CodeGenWebGPU::PrintType`` stops at ICHECKs for a 64-bit integer, a float that is
not 16 or 32 bits and a vector of other than 2 to 4 lanes, and at a
``TVM_FFI_THROW(InternalError)`` for any other type; ``AddFunction`` throws InternalError for a
kernel scalar argument other than i32, u32 and f32 (the runtime packs them into 32-bit
words), and the FloatImm printer for a float constant of other than 16 or 32 bits.
``CodeGenMetal::PrintType`` ends in ``TVM_FFI_THROW(InternalError)`` for every type it has no
name for (float64, by design since apache/tvm#7118; vectors of more than 4 lanes; integers of
other widths). Refusing is right; an internal error is the wrong kind: the type comes from the
user's program.

Upstream change (patch 0014): each of those sites throws ``ValueError`` instead, naming the
target and the type ("CodeGenWebGPU: the webgpu target cannot represent the type int64:
WGSL has no 64-bit integers", "... cannot pass a kernel argument of type float16: ...",
"CodeGenMetal: the metal target cannot represent the type float64"). Nothing else changes:
the same programs compile, the same programs are refused.

Here: ``install()`` wraps the registered build functions ``target.build.webgpu`` and
``target.build.metal`` (the code generator looks them up by name at each build). The wrapper
calls the original; where it refuses the module with an internal error, the wrapper looks in
the module's IR for a type the target lacks, in the order the code generator prints them
(the buffer parameters' element types, then the scalar parameters, then the body), and
raises the C++ fix's ValueError naming the first; an internal error with no such type is
re-raised as it is. A program the original compiles is never touched, so no valid program
is newly rejected.

On apache/tvm-tirx (module ``tvm_tirx``) the same wrapper serves: the package registers the
same build functions and raises the same checks as ``RuntimeError``
(``harness/tvm_line.py`` names the line's IR).
"""

import tvm_ffi

from harness.tvm_line import LINE, WalkResult, ir, walk

TARGETS = ("webgpu", "metal")

# DLDataTypeCode: kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4, kDLBool 6
_INT, _UINT, _FLOAT, _BFLOAT, _BOOL = 0, 1, 2, 4, 6

if LINE == "tvm":
    import tvm

    _DataType = tvm.DataType
    _BufferType = getattr(tvm.tirx, "BufferType", None)
    # what the released code generators raise at those sites
    INTERNAL = (tvm.error.InternalError,)
else:
    import tvm_tirx

    _DataType = tvm_ffi.dtype
    _BufferType = getattr(tvm_tirx.ir, "TensorType", None)
    INTERNAL = (RuntimeError,)


def _dtype(text):
    """(type code, bits, lanes) of a dtype string."""
    dtype = _DataType(text)
    return int(dtype.type_code), int(dtype.bits), int(dtype.lanes)


def webgpu_lacks(dtype):
    """Why WGSL (CodeGenWebGPU::PrintType) has no type ``dtype``, or None when it has one."""
    code, bits, lanes = _dtype(dtype)
    if (code, bits, lanes) in ((3, 0, 0), (_BOOL, 8, 1)) or dtype == "bool":
        return None  # void, bool
    if lanes != 1 and not 2 <= lanes <= 4:
        return "WGSL vectors have 2, 3 or 4 lanes"
    if lanes == 4 and code == _INT and bits == 8:
        return None  # int8x4 is packed into a u32
    if code == _FLOAT:
        return None if bits in (16, 32) else "WGSL has f16 and f32 only"
    if code in (_INT, _UINT):  # a bool vector matches neither code: no such type
        return None if bits != 64 else "WGSL has no 64-bit integers"
    return "WGSL has no such type"


def webgpu_cannot_pass(dtype):
    """Whether a WebGPU kernel cannot take a scalar argument of ``dtype`` (the runtime packs
    i32, u32 and f32 words only)."""
    return dtype not in ("int32", "uint32", "float32")


def metal_lacks(dtype):
    """Whether Metal (CodeGenMetal::PrintType) has no type ``dtype``."""
    code, bits, lanes = _dtype(dtype)
    if (code, bits, lanes) in ((3, 0, 0), (_BOOL, 8, 1)) or dtype == "bool":
        return False  # void, bool
    if code == _BFLOAT and bits == 16:
        return False
    fits = lanes == 1 or 2 <= lanes <= 4
    if code == _FLOAT:
        return not (bits in (16, 32) and fits)
    if code in (_INT, _UINT):  # a bool vector matches neither code: Metal lacks it
        return not (bits in (1, 8, 16, 32, 64) and fits)
    return True


def _prim_dtype(ty):
    """The dtype string of a PrimType, a buffer type or a pointer to a PrimType, else None."""
    if isinstance(ty, ir.PrimType):
        return str(ty)
    if _BufferType is not None and isinstance(ty, _BufferType):
        return str(ty.dtype)
    if isinstance(ty, ir.PointerType) and isinstance(ty.element_type, ir.PrimType):
        return str(ty.element_type)
    return None


def _body_dtypes(func):
    """The dtypes of every value, variable and buffer in ``func``'s body, in walk order."""
    found = []

    def visit(node):
        dtype = _prim_dtype(getattr(node, "ty", None))
        if dtype is not None:
            found.append(dtype)
        return WalkResult.ADVANCE

    walk(func.body, visit, order="pre")
    return found


def _is_pointer(param):
    return _prim_dtype(param.ty) is not None and not isinstance(param.ty, ir.PrimType)


def missing_type_error(target, mod):
    """The C++ fix's ValueError message for the first type of ``mod`` that ``target`` lacks,
    in the order its code generator prints them, or None.

    A bool vector is named only where the module lacks no other type: the code generators
    print no type for a vector comparison that only a select reads, so beside another type
    the target lacks, that other type is the one they refuse."""
    for bool_vectors in (False, True):
        message = _first_missing(target, mod, bool_vectors)
        if message is not None:
            return message
    return None


def _first_missing(target, mod, bool_vectors):
    """missing_type_error's search, over bool vectors too only with ``bool_vectors``; None
    where the build stops at another internal check first."""
    for _, func in mod.functions.items():
        if not _built(func):
            return None  # the build's checks of a kernel come before its types
        params = list(func.params)
        buffers = [_prim_dtype(p.ty) for p in params if _is_pointer(p)]
        scalars = [str(p.ty) for p in params if isinstance(p.ty, ir.PrimType)]
        body = _body_dtypes(func)
        buffers, scalars, body = _before_scalable(buffers, scalars, body)
        if not bool_vectors:
            buffers, body = _no_bool_vectors(buffers), _no_bool_vectors(body)
        if target == "metal":
            for dtype in [*buffers, *scalars, *body]:
                if metal_lacks(dtype):
                    return f"CodeGenMetal: the metal target cannot represent the type {dtype}"
            continue
        for dtype in buffers:
            if webgpu_lacks(dtype):
                return _webgpu_message(dtype)
        for dtype in scalars:
            if webgpu_cannot_pass(dtype):
                return (
                    "CodeGenWebGPU: the webgpu target cannot pass a kernel argument of type "
                    f"{dtype}: its scalar arguments are i32, u32 or f32"
                )
        for dtype in body:
            if webgpu_lacks(dtype):
                return _webgpu_message(dtype)
    return None


def _built(func):
    """Whether the build functions take ``func`` to its types: they check first, one function
    after another, that it is a PrimFunc, a kernel (calling convention 2) with a symbol."""
    attrs = func.attrs if isinstance(func, ir.PrimFunc) else None
    if attrs is None or attrs.get("global_symbol") is None:
        return False
    return attrs.get("calling_conv") is not None and int(attrs.get("calling_conv")) == 2


def _before_scalable(*dtypes):
    """The lists of ``dtypes``, in the order the code generator prints them, cut before the
    first scalable vector: its lane count stops the code generator at an internal check."""
    seen, cut = 0, []
    for part in dtypes:
        stop = next((i for i, d in enumerate(part) if _dtype(d)[2] < 0), None)
        cut.append(part if stop is None and not seen else part[: 0 if seen else stop])
        seen = seen or stop is not None
    return cut


def _no_bool_vectors(dtypes):
    return [d for d in dtypes if not (_dtype(d)[0] == _BOOL and _dtype(d)[2] != 1)]


def _webgpu_message(dtype):
    return (
        f"CodeGenWebGPU: the webgpu target cannot represent the type {dtype}: {webgpu_lacks(dtype)}"
    )


def _fixed_build(target, original):
    def build(mod, target_obj):
        try:
            return original(mod, target_obj)
        except INTERNAL as err:
            if isinstance(err, ValueError | TypeError):
                raise
            message = missing_type_error(target, mod)
            if message is None:
                raise
            raise ValueError(message) from None

    return build


def install():
    """Install the fixed build functions; return a function that restores the originals."""
    saved = {}
    for target in TARGETS:
        name = f"target.build.{target}"
        original = tvm_ffi.get_global_func(name, allow_missing=True)
        if original is None:
            continue
        saved[name] = original
        tvm_ffi.register_global_func(name, _fixed_build(target, original), override=True)

    def uninstall():
        for name, original in saved.items():
            tvm_ffi.register_global_func(name, original, override=True)

    return uninstall
