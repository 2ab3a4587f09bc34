# Writes the catalog in its hand-edited style: a figure (an object with "value") on one line.
import json, sys, collections
def dump(v, indent=0):
    pad = '  ' * indent
    if isinstance(v, dict):
        if 'value' in v or all(not isinstance(x, (dict, list)) for x in v.values()):
            return json.dumps(v, ensure_ascii=False)
        items = [f'{pad}  {json.dumps(k)}: {dump(x, indent + 1)}' for k, x in v.items()]
        return '{\n' + ',\n'.join(items) + f'\n{pad}}}'
    if isinstance(v, list):
        if all(not isinstance(x, (dict, list)) for x in v): return json.dumps(v, ensure_ascii=False)
        items = [f'{pad}  {dump(x, indent + 1)}' for x in v]
        return '[\n' + ',\n'.join(items) + f'\n{pad}]'
    return json.dumps(v, ensure_ascii=False)
if __name__ == '__main__':
    src, dst = sys.argv[1], sys.argv[2]
    doc = json.load(open(src), object_pairs_hook=collections.OrderedDict)
    open(dst, 'w').write(dump(doc) + '\n')
