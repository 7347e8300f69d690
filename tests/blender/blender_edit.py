# Run inside Blender (blender -b --factory-startup --python blender_edit.py -- ARGS): what a modder does to
# a scene `anvilrt export` wrote, by bpy. ARGS: SCENE.glb OUT.glb MOVE DX DY DZ DELETE DUPLICATE DX DY DZ
# REPORT.json. Imports SCENE (import_shading="FLAT": the default path calls numpy's removed np.bool with
# Debian's numpy), moves the object named MOVE by (DX, DY, DZ) in Blender's world (z-up, as Anvil's),
# deletes the object named DELETE, duplicates the object named DUPLICATE (a copy of the object: Blender
# keeps its custom properties, the node's extras) and moves the copy by the second vector, exports OUT
# with the extras, and writes REPORT.json: each named object's world matrix before and after, and the
# copy's name.
import json
import sys

import bpy
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:]
scene_in, scene_out = args[0], args[1]
move, move_by = args[2], Vector([float(v) for v in args[3:6]])
delete, duplicate = args[6], args[7]
duplicate_by = Vector([float(v) for v in args[8:11]])
report_path = args[11]

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=scene_in, import_shading="FLAT")


def matrix(obj):
    return [list(row) for row in obj.matrix_world]


def find(name):
    obj = bpy.data.objects.get(name)
    if obj is None:
        raise SystemExit(f"blender_edit: no object named {name!r} in the imported scene")
    return obj


report = {"objects": len(bpy.data.objects)}
moved = find(move)
report["move_before"] = matrix(moved)
moved.location = moved.location + move_by
bpy.context.view_layer.update()
report["move_after"] = matrix(moved)

gone = find(delete)
report["delete_before"] = matrix(gone)
bpy.data.objects.remove(gone, do_unlink=True)

source = find(duplicate)
copy = source.copy()
for collection in source.users_collection:
    collection.objects.link(copy)
copy.location = copy.location + duplicate_by
bpy.context.view_layer.update()
report["duplicate_before"] = matrix(source)
report["copy_name"] = copy.name
report["copy_after"] = matrix(copy)
report["copy_extras"] = {k: copy[k] for k in copy.keys() if isinstance(copy[k], (int, float, str))}

bpy.ops.export_scene.gltf(filepath=scene_out, export_format="GLB", export_extras=True)
with open(report_path, "w") as f:
    json.dump(report, f, indent=1)
