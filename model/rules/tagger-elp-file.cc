/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * ELPs of explicit paths: MakeElpFromPaths and path files (ReadElpFile).
 */

#include "tagger-elp-core.h"
#include "tagger-io.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ns3
{
namespace tagger
{

using detail::CheckPath;
using detail::PathText;

Elp
MakeElpFromPaths(const Topology& topo, std::vector<Path> paths)
{
    Elp elp;
    elp.graph = HopGraph(topo);
    for (size_t i = 0; i < paths.size(); ++i)
    {
        std::string err = CheckPath(topo, paths[i]);
        if (!err.empty())
        {
            throw TaggerError("ELP path " + std::to_string(i + 1) + " (" +
                              PathText(topo, paths[i]) + "): " + err);
        }
        elp.graph.AddPath(paths[i]);
        elp.longestPath =
            std::max<uint32_t>(elp.longestPath, static_cast<uint32_t>(paths[i].size() - 1));
    }
    elp.pathCount = paths.size();
    elp.paths = std::move(paths);
    return elp;
}

Elp
ReadElpFile(const Topology& topo, const std::string& filename)
{
    std::ifstream in(filename);
    if (!in)
    {
        throw TaggerError("cannot open ELP file '" + filename + "'");
    }
    if ((in >> std::ws).peek() == '{')
    {
        try
        {
            return ReadElpJson(topo, in, filename); // a tagger-rules file with --emit-elp
        }
        catch (const std::ios_base::failure&)
        {
            throw TaggerError(ReadErrorText("ELP file", filename));
        }
    }
    if (in.bad())
    {
        throw TaggerError(ReadErrorText("ELP file", filename));
    }
    Elp elp;
    elp.graph = HopGraph(topo);
    std::string line;
    uint64_t lineNo = 0;
    bool tooLong = false;
    while (GetLineBounded(in, line, kMaxLineBytes, tooLong))
    {
        ++lineNo;
        if (tooLong)
        {
            throw TaggerError(filename + ":" + std::to_string(lineNo) +
                              ": line longer than the limit of " + std::to_string(kMaxLineBytes) +
                              " bytes (kMaxLineBytes)");
        }
        auto hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.erase(hash);
        }
        std::istringstream words(line);
        std::string word;
        Path path;
        while (words >> word)
        {
            NodeId id = topo.FindNode(word);
            if (id == kNone)
            {
                throw TaggerError(filename + ":" + std::to_string(lineNo) + ": unknown node '" +
                                  word + "'");
            }
            path.push_back(id);
        }
        if (path.empty())
        {
            continue;
        }
        std::string err = CheckPath(topo, path);
        if (!err.empty())
        {
            throw TaggerError(filename + ":" + std::to_string(lineNo) + ": " + err);
        }
        elp.graph.AddPath(path);
        elp.longestPath =
            std::max<uint32_t>(elp.longestPath, static_cast<uint32_t>(path.size() - 1));
        elp.paths.push_back(std::move(path));
    }
    if (in.bad())
    {
        throw TaggerError(filename + ": read error after line " + std::to_string(lineNo));
    }
    if (elp.paths.empty())
    {
        throw TaggerError(filename + ": no path in the file");
    }
    elp.pathCount = elp.paths.size();
    return elp;
}

} // namespace tagger
} // namespace ns3
